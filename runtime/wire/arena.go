package wire

import (
	"encoding/json"
	"unsafe"
)

// A decoded document holds many small strings, raw values and optional
// scalars. The decoder carves them out of shared blocks, so a few hundred
// of them cost one allocation instead of one each. A piece is never handed
// out twice and never written after it is handed out; a block lives as
// long as any piece of it does (at most arenaBlock bytes kept alive by one
// small string). The unused tail of a block carries over to the next
// document a pooled decoder reads.

const (
	arenaBlock = 4096 // bytes per string/raw block
	arenaMax   = 512  // longer values get an allocation of their own
	slabLen    = 32   // scalars per slab
)

// copyString returns b as a string backed by the decoder's block.
func (d *Decoder) copyString(b []byte) string {
	n := len(b)
	switch {
	case n == 0:
		return ""
	case n > arenaMax:
		return string(b)
	}
	if cap(d.arena)-len(d.arena) < n {
		d.arena = make([]byte, 0, arenaBlock)
	}
	start := len(d.arena)
	d.arena = append(d.arena, b...)
	return unsafe.String(&d.arena[start], n)
}

// copyRaw returns the compact form of the valid JSON src, backed by the
// decoder's block. Its capacity is its length, so appending to it never
// writes into a neighbour.
func (d *Decoder) copyRaw(src []byte) json.RawMessage {
	if len(src) > arenaMax {
		return appendCompact(make(json.RawMessage, 0, len(src)), src)
	}
	if cap(d.arena)-len(d.arena) < len(src) {
		d.arena = make([]byte, 0, arenaBlock)
	}
	start := len(d.arena)
	d.arena = appendCompact(d.arena, src)
	end := len(d.arena)
	return json.RawMessage(d.arena[start:end:end])
}

// newScalar returns a zero value carved from a slab of them.
func newScalar[T float64 | int64 | bool | string](slab *[]T) *T {
	if len(*slab) == cap(*slab) {
		*slab = make([]T, 0, slabLen)
	}
	*slab = (*slab)[:len(*slab)+1]
	return &(*slab)[len(*slab)-1]
}
