package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Limits bound what a payload may cost to validate. Payloads are untrusted.
type Limits struct {
	MaxBytes int // whole payload; default 16 MiB
	MaxDepth int // nesting of arrays and objects; default 512
	// MaxNumberLen bounds a number literal's length (digits, sign, exponent);
	// default 512. Exponents are bounded too (|e| ≤ 9999) because the
	// validator compares numbers exactly, and 1e999999999 would be huge.
	MaxNumberLen int
}

// DefaultLimits are generous for AdCP payloads (the 12-product
// get_products fixture is 36 KB, 12 levels deep).
var DefaultLimits = Limits{MaxBytes: 16 << 20, MaxDepth: 512, MaxNumberLen: 512}

const maxExponent = 9999

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxNumberLen <= 0 {
		l.MaxNumberLen = DefaultLimits.MaxNumberLen
	}
	return l
}

// PayloadError reports a payload that could not be read as JSON within
// the limits. It is not a schema issue: the validator never saw a value.
type PayloadError struct {
	Offset int64 // byte offset where the problem was found
	Reason string
}

func (e *PayloadError) Error() string {
	return fmt.Sprintf("payload at byte %d: %s", e.Offset, e.Reason)
}

// decodePayload parses data as one JSON value (numbers as json.Number)
// after checking size, UTF-8, nesting depth and number literals.
// Duplicate keys are not detected here (the last one wins), nor are
// "__proto__" keys special: the strict generated decoders reject those.
func decodePayload(data []byte, lim Limits) (any, error) {
	if len(data) > lim.MaxBytes {
		return nil, &PayloadError{Offset: int64(lim.MaxBytes), Reason: fmt.Sprintf("larger than the %d byte limit", lim.MaxBytes)}
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, &PayloadError{Offset: int64(off), Reason: "invalid UTF-8"}
	}
	if err := scanShape(data, lim); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(err, dec.InputOffset())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &PayloadError{Offset: dec.InputOffset(), Reason: "data after the JSON value"}
	}
	return v, nil
}

func jsonError(err error, at int64) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return &PayloadError{Offset: syn.Offset, Reason: "invalid JSON: " + syn.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &PayloadError{Offset: at, Reason: "invalid JSON: unexpected end of input"}
	}
	return &PayloadError{Offset: at, Reason: "invalid JSON: " + err.Error()}
}

// scanShape walks the bytes once, outside strings, for nesting depth and
// number literal size. Syntax errors are left to the decoder.
func scanShape(data []byte, lim Limits) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			if depth++; depth > lim.MaxDepth {
				return &PayloadError{Offset: int64(i), Reason: fmt.Sprintf("nested deeper than %d", lim.MaxDepth)}
			}
		case ']', '}':
			depth--
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			start := i
			exp := -1
			for i+1 < len(data) && isNumberByte(data[i+1]) {
				i++
				if data[i] == 'e' || data[i] == 'E' {
					exp = i
				}
			}
			if i+1-start > lim.MaxNumberLen {
				return &PayloadError{Offset: int64(start), Reason: fmt.Sprintf("number longer than %d characters", lim.MaxNumberLen)}
			}
			if exp >= 0 && exponentTooLarge(data[exp+1:i+1]) {
				return &PayloadError{Offset: int64(start), Reason: fmt.Sprintf("number exponent beyond ±%d", maxExponent)}
			}
		}
	}
	return nil
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

func exponentTooLarge(e []byte) bool {
	if len(e) > 0 && (e[0] == '+' || e[0] == '-') {
		e = e[1:]
	}
	for len(e) > 1 && e[0] == '0' {
		e = e[1:]
	}
	if len(e) > 4 {
		return true
	}
	n := 0
	for _, c := range e {
		n = n*10 + int(c-'0')
	}
	return n > maxExponent
}
