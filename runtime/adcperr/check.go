package adcperr

import (
	"errors"
	"unicode/utf16"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Limits every buyer applies to an adcp_error object before trusting it.
const (
	// MaxErrorBytes bounds the compact JSON text of an adcp_error object.
	MaxErrorBytes = 4096
	// MaxCodeLength bounds `code`, in UTF-16 code units as JavaScript counts.
	MaxCodeLength = 64
)

// Why Check refuses an adcp_error candidate.
var (
	ErrNotObject = errors.New("adcp_error is not an object")
	ErrBadCode   = errors.New("adcp_error code is not a string of 1-64 characters")
	ErrOversized = errors.New("adcp_error is larger than 4096 bytes of compact JSON")
)

// Check is the error validation rule of AdCP's transport error mapping: an
// adcp_error is usable when it is an object whose code is a string of 1-64
// characters and whose compact JSON text is at most 4096 bytes. A refused
// candidate means "no structured error"; the error says which rule failed.
func Check(obj wire.Lenient) error {
	if !obj.IsObject() {
		return ErrNotObject
	}
	code, ok := obj.Get("code").AsString()
	if !ok || code == "" || utf16Len(code) > MaxCodeLength {
		return ErrBadCode
	}
	if len(obj) > MaxErrorBytes && obj.CompactLen() > MaxErrorBytes {
		return ErrOversized
	}
	return nil
}

// utf16Len is JavaScript's String.prototype.length of the decoded string.
func utf16Len(s string) int {
	n := 0
	for _, r := range s { // invalid UTF-8 bytes range as U+FFFD: one unit each
		n += utf16.RuneLen(r)
	}
	return n
}
