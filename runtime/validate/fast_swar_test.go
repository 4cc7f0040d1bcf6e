package validate

import (
	"encoding/binary"
	"testing"
)

// swarSpecial agrees with strSpecial on each byte value in each lane.
func TestSWARSpecial(t *testing.T) {
	for c := 0; c < 256; c++ {
		for lane := 0; lane < 8; lane++ {
			var b [8]byte
			for k := range b {
				b[k] = 'a'
			}
			b[lane] = byte(c)
			if got := swarSpecial(binary.LittleEndian.Uint64(b[:])); got != strSpecial[c] {
				t.Fatalf("byte %#x in lane %d: %v, want %v", c, lane, got, strSpecial[c])
			}
		}
	}
}
