package validate

import (
	"bytes"
	"encoding/json"
	"math/big"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Scalar reading on the tape, without allocating on the common path.

// unescapeJSON appends the decoded content of a JSON string (between the
// quotes, already checked by the parser) to dst, as encoding/json decodes
// it: an unpaired surrogate becomes U+FFFD.
func unescapeJSON(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		switch raw[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hexRune(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if d := utf16.DecodeRune(r, hexRune(raw[i+2:i+6])); d != utf8.RuneError {
						dst = utf8.AppendRune(dst, d)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // " \ /
			dst = append(dst, raw[i+1])
		}
		i += 2
	}
	return dst
}

func hexRune(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// bytesString views b as a string; the caller must not keep it past b's life.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// decimal is a number literal normalised to ±0.digits×10^exp, digits
// without leading or trailing zeros (empty for zero), so that equal values
// compare equal whatever their spelling (1, 1.0, 10e-1).
type decimal struct {
	neg    bool
	digits []byte
	exp    int
}

// parseDecimal normalises a JSON number literal, appending digits to buf.
func parseDecimal(lit, buf []byte) decimal {
	var d decimal
	i := 0
	if i < len(lit) && lit[i] == '-' {
		d.neg = true
		i++
	}
	point := -1 // digits before the point
	n := 0
	lead := true
	leadDropped := 0
	start := len(buf)
	for ; i < len(lit); i++ {
		c := lit[i]
		if c == '.' {
			point = n + leadDropped
			continue
		}
		if c == 'e' || c == 'E' {
			break
		}
		if lead && c == '0' {
			leadDropped++
			continue
		}
		lead = false
		buf = append(buf, c)
		n++
	}
	if point < 0 {
		point = n + leadDropped
	}
	e := 0
	if i < len(lit) { // exponent
		i++
		eneg := false
		if lit[i] == '+' || lit[i] == '-' {
			eneg = lit[i] == '-'
			i++
		}
		for ; i < len(lit); i++ {
			if e < 1<<20 {
				e = e*10 + int(lit[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
	}
	digits := buf[start:]
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	d.digits = digits
	if len(digits) == 0 {
		d.neg = false
		return d
	}
	d.exp = point - leadDropped + e
	return d
}

func (d decimal) isZero() bool { return len(d.digits) == 0 }

// isInt reports whether the value has no fractional part.
func (d decimal) isInt() bool { return d.isZero() || len(d.digits) <= d.exp }

// cmpDecimal compares two normalised decimals.
func cmpDecimal(a, b decimal) int {
	sign := func(d decimal) int {
		switch {
		case d.isZero():
			return 0
		case d.neg:
			return -1
		}
		return 1
	}
	sa, sb := sign(a), sign(b)
	if sa != sb || sa == 0 {
		return cmpInt(sa, sb)
	}
	c := 0
	if a.exp != b.exp {
		c = cmpInt(a.exp, b.exp)
	} else {
		c = bytes.Compare(a.digits, b.digits)
	}
	if sa < 0 {
		c = -c
	}
	return c
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// bound is a numeric keyword's value, kept for exact comparison.
type bound struct {
	dec decimal
	f64 float64 // as the reference prints it in messages
}

func newBound(n json.Number) (*bound, bool) {
	if !isJSONNumber(string(n)) {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return nil, false
	}
	f, _ := r.Float64()
	return &bound{dec: parseDecimal([]byte(n), nil), f64: f}, true
}

func isJSONNumber(s string) bool {
	p := tapeParser{data: []byte(s), lim: Limits{MaxNumberLen: 1 << 20, MaxDepth: 1}}
	if s == "" || !(s[0] == '-' || isDigit(s[0])) {
		return false
	}
	return p.number() == nil && p.pos == len(s)
}

// literalSign is the sign of a number literal's value (-1, 0 or 1).
func literalSign(lit []byte) int {
	neg := len(lit) > 0 && lit[0] == '-'
	for _, c := range lit {
		if c == 'e' || c == 'E' {
			break
		}
		if c >= '1' && c <= '9' {
			if neg {
				return -1
			}
			return 1
		}
	}
	return 0
}
