// Package jsonscan finds, eight bytes at a time, the next byte of a JSON
// string that a reader or a writer must look at: the quote or backslash
// that ends a run of plain text, and the bytes an encoder escapes. The
// strict encoder (runtime/wire), its lenient reader's skipping and the
// seller's transports (internal/stdjson) share it: most bytes of a large
// answer are text inside strings, and a byte at a time through a lookup
// table was most of what their passes over it cost.
package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// The masks mark (in its high bit) each byte of a word that is in their
// set, the classic way: a byte b equals c where b^c is zero, and a zero
// byte z is marked by (z-1) &^ z & 0x80 (a byte under n, by (b-n) &^ b).
// A borrow may also mark a byte above a marked one, never one below: the
// lowest mark is always a byte of the set.

// first is the index of the lowest byte a mask marks.
func first(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// Word-at-a-time escaping: a writer loads eight bytes with Load, stores
// them ahead in its output, and asks a mask for the bytes it must handle;
// First is how many bytes before the first of them it keeps. A mask's
// lowest mark is always a byte of its set (marks above it may not be).

// Load is the eight bytes of s at i, the first lowest.
func Load(s []byte, i int) uint64 { return binary.LittleEndian.Uint64(s[i:]) }

// Store writes x at b[i:i+8].
func Store(b []byte, i int, x uint64) { binary.LittleEndian.PutUint64(b[i:], x) }

// First is the index of the lowest byte m marks (8 when none).
func First(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// QuoteMask marks the bytes of x a string encoder must look at: control
// bytes, '"', '\\' and bytes of multi-byte sequences; with html, '<', '>'
// and '&' too (HTMLQuoteMask).
func QuoteMask(x uint64, html bool) uint64 {
	if html {
		return HTMLQuoteMask(x)
	}
	return StringMask(x)
}

// StringMask marks the bytes of x a JSON string encoder must look at:
// control bytes, '"', '\\' and bytes of multi-byte sequences.
func StringMask(x uint64) uint64 {
	a, b := x^(ones*'\\'), x^(ones*'"')
	return ((x-ones*0x20)&^x | (a-ones)&^a | (b-ones)&^b | x) & highs
}

// HTMLQuoteMask is StringMask with '<', '>' and '&' ('"' and '&' are 0x26
// with bit 2 set, '<' and '>' 0x3E with bit 1).
func HTMLQuoteMask(x uint64) uint64 {
	a, b := x^(ones*'\\'), (x|ones*0x04)^(ones*0x26)
	c := (x | ones*0x02) ^ (ones * 0x3E)
	return ((x-ones*0x20)&^x | (a-ones)&^a | (b-ones)&^b | (c-ones)&^c | x) & highs
}

// EndMask marks the bytes of x that end a run of a string's text: '"' and
// '\\'.
func EndMask(x uint64) uint64 {
	a, b := x^(ones*'"'), x^(ones*'\\')
	return ((a-ones)&^a | (b-ones)&^b) & highs
}

// HTMLMask marks what EndMask marks and the bytes HTML escaping may
// rewrite inside a string: '<', '>', '&' and 0xE2 (which leads U+2028 and
// U+2029).
func HTMLMask(x uint64) uint64 {
	a, b := x^(ones*'\\'), x^(ones*0xE2)
	c, d := (x|ones*0x04)^(ones*0x26), (x|ones*0x02)^(ones*0x3E)
	return ((a-ones)&^a | (b-ones)&^b | (c-ones)&^c | (d-ones)&^d) & highs
}

// Bytes is s's bytes, shared, not copied: for reading only.
func Bytes[S []byte | string](s S) []byte { return bytesOf(s) }

// StringEnd returns the index of the first '"' or '\\' in s at or after
// i, or len(s): where a run of a string's text ends.
func StringEnd(s []byte, i int) int {
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		if m := EndMask(x); m != 0 {
			return i + first(m)
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			return i
		}
	}
	return len(s)
}

// Plain returns the index of the first byte of s at or after i that a
// JSON encoder writing s as a string must look at (a control byte, '"',
// '\\', or a byte of a multi-byte sequence), or len(s). With html, '<',
// '>' and '&' too.
func Plain[S []byte | string](str S, i int, html bool) int {
	s := bytesOf(str)
	if html {
		for ; i+8 <= len(s); i += 8 {
			if m := HTMLQuoteMask(binary.LittleEndian.Uint64(s[i:])); m != 0 {
				return i + first(m)
			}
		}
	} else {
		for ; i+8 <= len(s); i += 8 {
			if m := StringMask(binary.LittleEndian.Uint64(s[i:])); m != 0 {
				return i + first(m)
			}
		}
	}
	if i < len(s) && len(s) >= 8 {
		// The last word, overlapping bytes before i, which are made plain
		// ('a') so that none is marked, nor marks another by its borrow.
		k := uint(i - (len(s) - 8))
		low := uint64(1)<<(8*k) - 1
		x := binary.LittleEndian.Uint64(s[len(s)-8:])&^low | ones*'a'&low
		if m := quoteMask(x, html); m != 0 {
			return len(s) - 8 + first(m)
		}
		return len(s)
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 || (html && (c == '<' || c == '>' || c == '&')) {
			return i
		}
	}
	return len(s)
}

func quoteMask(x uint64, html bool) uint64 {
	if html {
		return HTMLQuoteMask(x)
	}
	return StringMask(x)
}

// HTMLEnd returns the index of the first byte of a string's text at or
// after i that ends its run or that HTML escaping may rewrite: '"', '\\',
// '<', '>', '&', or 0xE2 (which leads U+2028 and U+2029); or len(s).
func HTMLEnd(s []byte, i int) int {
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		if m := HTMLMask(x); m != 0 {
			return i + first(m)
		}
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '<', '>', '&', 0xE2:
			return i
		}
	}
	return len(s)
}

// bytesOf is s's bytes, shared, not copied: the finders only read them.
func bytesOf[S []byte | string](s S) []byte {
	if b, ok := any(s).([]byte); ok {
		return b
	}
	str := string(s)
	return unsafe.Slice(unsafe.StringData(str), len(str))
}
