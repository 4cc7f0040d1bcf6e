package wire

import (
	"math"
	"strconv"
	"testing"
)

// appendFloat's integers are what its formatting writes of any float.
func TestAppendFloatIntegers(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 12, 900000, 4.3e6, 1 << 52, 1<<53 - 1, 1 << 53, -(1<<53 - 1), 1e20, 1e21, 12.5, 0.35, 1e-7} {
		checkFloat(t, f)
	}
}

func checkFloat(t *testing.T, f float64) {
	t.Helper()
	if got, want := appendFloat(nil, f), appendFloatFormatted(nil, f); string(got) != string(want) {
		t.Errorf("appendFloat(%v) = %s, want %s", f, got, want)
	}
}

// appendFloatFormatted is appendFloat without its integer path, as it was.
func appendFloatFormatted(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

func FuzzAppendFloat(f *testing.F) {
	f.Add(12.0)
	f.Add(math.Copysign(0, -1))
	f.Fuzz(func(t *testing.T, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		checkFloat(t, x)
	})
}
