package wire

import (
	"encoding/json"
	"math"
	"strconv"
	"unsafe"
)

// String reads a string value.
func (d *Decoder) String() (string, error) {
	c := d.skipWS()
	if c != '"' {
		return "", d.typeErr("string", c)
	}
	b, err := d.readString(&d.scratch)
	if err != nil {
		return "", err
	}
	return d.copyString(b), nil
}

// StringBytes reads a string value and returns its unescaped bytes, valid
// until the next read.
func (d *Decoder) StringBytes() ([]byte, error) {
	c := d.skipWS()
	if c != '"' {
		return nil, d.typeErr("string", c)
	}
	return d.readString(&d.scratch)
}

// Bool reads true or false.
func (d *Decoder) Bool() (bool, error) {
	switch c := d.skipWS(); c {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	default:
		return false, d.typeErr("boolean", c)
	}
}

// Null consumes a null and reports true, or reports false and consumes
// nothing when the next value is not null.
func (d *Decoder) Null() (bool, error) {
	if d.skipWS() != 'n' {
		return false, nil
	}
	return true, d.literal("null")
}

// Int reads an integer. JSON Schema integers include numbers with a zero
// fraction (1.0, 1e2); values outside int64 are a KindRange error.
func (d *Decoder) Int() (int64, error) {
	c := d.skipWS()
	if c != '-' && (c < '0' || c > '9') {
		return 0, d.typeErr("integer", c)
	}
	start := d.pos
	lit, integer, err := d.scanNumber()
	if err != nil {
		return 0, err
	}
	if integer {
		if n, ok := parseSmallInt(lit); ok {
			return n, nil
		}
		n, err := strconv.ParseInt(unsafeString(lit), 10, 64)
		if err != nil {
			d.pos = start
			return 0, d.errAt(KindRange, "integer "+string(lit)+" does not fit in int64")
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(unsafeString(lit), 64)
	if err != nil || f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		d.pos = start
		return 0, d.errAt(KindType, "want integer, got "+string(lit))
	}
	return int64(f), nil
}

// parseSmallInt parses up to 18 digits without overflow checks.
func parseSmallInt(b []byte) (int64, bool) {
	neg := false
	if b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// Float reads a number. Literals beyond float64's range are a KindRange error.
func (d *Decoder) Float() (float64, error) {
	c := d.skipWS()
	if c != '-' && (c < '0' || c > '9') {
		return 0, d.typeErr("number", c)
	}
	start := d.pos
	lit, integer, err := d.scanNumber()
	if err != nil {
		return 0, err
	}
	if integer {
		if n, ok := parseSmallInt(lit); ok && n > -(1<<53) && n < 1<<53 {
			return float64(n), nil
		}
	}
	f, err := strconv.ParseFloat(unsafeString(lit), 64)
	if err != nil {
		d.pos = start
		return 0, d.errAt(KindRange, "number "+string(lit)+" is out of range for float64")
	}
	return f, nil
}

// Raw reads any value, checking it as strictly as typed values (forbidden and
// duplicate keys, UTF-8, depth), and returns a compact copy of its bytes
// (whitespace between tokens dropped, everything else as sent), so a value
// re-encodes to compact JSON and decodes back equal.
func (d *Decoder) Raw() (json.RawMessage, error) {
	if d.skipWS() == 0 {
		return nil, d.syntaxErr("want a value, got end of input")
	}
	start := d.pos
	if err := d.walkValue(); err != nil {
		return nil, err
	}
	return d.copyRaw(d.buf[start:d.pos]), nil
}

// appendCompact appends valid JSON src without the whitespace between its
// tokens.
func appendCompact(dst, src []byte) []byte {
	inString := false
	from := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			dst = append(dst, src[from:i]...)
			from = i + 1
		}
	}
	return append(dst, src[from:]...)
}

// Skip reads and discards any value, checking it like Raw.
func (d *Decoder) Skip() error { return d.walkValue() }

// Duplicate reports a key seen twice in one object.
func (d *Decoder) Duplicate(key []byte) error {
	return d.errAt(KindDuplicate, "duplicate key "+strconv.Quote(string(key)))
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Number reads a number and returns its literal, valid until the next read.
func (d *Decoder) Number() ([]byte, error) {
	c := d.skipWS()
	if c != '-' && (c < '0' || c > '9') {
		return nil, d.typeErr("number", c)
	}
	lit, _, err := d.scanNumber()
	return lit, err
}
