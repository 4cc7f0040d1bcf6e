package wire

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// skipWS advances past whitespace and returns the next byte (0 at the end).
func (d *Decoder) skipWS() byte {
	for d.pos < len(d.buf) {
		switch c := d.buf[d.pos]; c {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return c
		}
	}
	return 0
}

// readString reads the string token at d.pos (which is '"') and returns its
// unescaped bytes: a slice of the input when it has no escapes, else of
// *scratch. It rejects control characters, invalid UTF-8 and lone surrogates.
func (d *Decoder) readString(scratch *[]byte) ([]byte, error) {
	start := d.pos + 1
	i := start
	for i < len(d.buf) {
		c := d.buf[i]
		if c == '"' {
			d.pos = i + 1
			return d.buf[start:i], nil
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		i++
	}
	return d.readStringSlow(start, i, scratch)
}

func (d *Decoder) readStringSlow(start, i int, scratch *[]byte) ([]byte, error) {
	out := append((*scratch)[:0], d.buf[start:i]...)
	for {
		if i >= len(d.buf) {
			d.pos = i
			return nil, d.syntaxErr("unterminated string")
		}
		c := d.buf[i]
		switch {
		case c == '"':
			d.pos = i + 1
			*scratch = out
			return out, nil
		case c < 0x20:
			d.pos = i
			return nil, d.syntaxErr("control character " + describeByte(c) + " in string")
		case c < 0x80 && c != '\\':
			out = append(out, c)
			i++
		case c >= 0x80:
			r, size := utf8.DecodeRune(d.buf[i:])
			if r == utf8.RuneError && size == 1 {
				d.pos = i
				return nil, d.errAt(KindUTF8, "invalid UTF-8 in string")
			}
			out = append(out, d.buf[i:i+size]...)
			i += size
		default: // backslash
			if i+1 >= len(d.buf) {
				d.pos = i
				return nil, d.syntaxErr("unterminated string")
			}
			e := d.buf[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(d.buf, i)
				if !ok {
					d.pos = i - 2
					return nil, d.syntaxErr("malformed \\u escape")
				}
				i += 4
				if utf16.IsSurrogate(r) {
					r2, ok2 := rune(0), false
					if i+6 <= len(d.buf) && d.buf[i] == '\\' && d.buf[i+1] == 'u' {
						r2, ok2 = hex4(d.buf, i+2)
					}
					dec := utf16.DecodeRune(r, r2)
					if !ok2 || dec == utf8.RuneError {
						d.pos = i - 6
						return nil, d.errAt(KindUTF8, "lone UTF-16 surrogate escape in string")
					}
					r = dec
					i += 6
				}
				out = utf8.AppendRune(out, r)
			default:
				d.pos = i - 2
				return nil, d.syntaxErr("invalid escape \\" + string(rune(e)) + " in string")
			}
		}
	}
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// scanNumber reads a JSON number at d.pos and returns its bytes and whether
// it has neither fraction nor exponent.
func (d *Decoder) scanNumber() (lit []byte, integer bool, err error) {
	start, i := d.pos, d.pos
	b := d.buf
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		d.pos = i
		return nil, false, d.syntaxErr("malformed number")
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			d.pos = i
			return nil, false, d.syntaxErr("malformed number: want a digit after '.'")
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			d.pos = i
			return nil, false, d.syntaxErr("malformed number: want a digit in the exponent")
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	d.pos = i
	return b[start:i], integer, nil
}

// literal consumes want ("true", "false", "null") at d.pos.
func (d *Decoder) literal(want string) error {
	if len(d.buf)-d.pos < len(want) || string(d.buf[d.pos:d.pos+len(want)]) != want {
		return d.syntaxErr("invalid literal, want " + want)
	}
	d.pos += len(want)
	return nil
}

// describeByte names the JSON value a byte starts, for messages.
func describeByte(c byte) string {
	switch {
	case c == 0:
		return "end of input"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || (c >= '0' && c <= '9'):
		return "number"
	case c >= 0x20 && c < 0x7f:
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

// typeErr reports a value of the wrong JSON type, or a syntax error when the
// byte starts no value at all.
func (d *Decoder) typeErr(want string, c byte) error {
	switch c {
	case '{', '[', '"', 't', 'f', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return d.errAt(KindType, "want "+want+", got "+describeByte(c))
	}
	return d.syntaxErr("want " + want + ", got " + describeByte(c))
}

func (d *Decoder) syntaxErr(msg string) error { return d.errAt(KindSyntax, msg) }

// errAt builds a *DecodeError at the current path.
func (d *Decoder) errAt(kind Kind, msg string) *DecodeError {
	return &DecodeError{Kind: kind, Pointer: d.Pointer(), Offset: d.pos, Message: msg}
}

// Pointer is the RFC 6901 pointer of the value being read.
func (d *Decoder) Pointer() string {
	var b []byte
	var scratch []byte
	for _, f := range d.stack {
		if f.count == 0 {
			continue
		}
		if f.array {
			b = strconv.AppendInt(append(b, '/'), int64(f.count-1), 10)
			continue
		}
		if f.keyStart < 0 {
			continue
		}
		b = appendPointerToken(b, unescapeKey(d.buf[f.keyStart:f.keyEnd], &scratch))
	}
	return string(b)
}

// unescapeKey decodes a raw key for a pointer; malformed input is shown raw.
func unescapeKey(raw []byte, scratch *[]byte) string {
	tmp := Decoder{buf: append(append([]byte{'"'}, raw...), '"')}
	s, err := tmp.readString(scratch)
	if err != nil {
		return string(raw)
	}
	return string(s)
}
