package validate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"
)

// The fast path reads a payload once into a tape: one entry per JSON value
// (and per object key), each knowing its byte span and where the next
// sibling starts, so the schema program can walk, skip and re-visit values
// (oneOf arms re-run on the same entries) without building Go values.

type tokKind uint8

const (
	tNull tokKind = iota + 1
	tTrue
	tFalse
	tNumber
	tString
	tArray
	tObject
)

// tok is one tape entry. For strings, start..end is the content between
// the quotes; for numbers the literal; for arrays and objects the span
// from bracket to bracket. Object members are a key entry (a string)
// followed by the value's entries.
type tok struct {
	kind    tokKind
	escaped bool  // a string holding backslash escapes
	start   int32 // byte offsets into the payload
	end     int32
	next    int32 // index of the entry after this value (and its children)
	n       int32 // members or elements
}

// tapeParser builds a tape while checking what decodePayload checks:
// syntax, UTF-8, depth, number literal size.
type tapeParser struct {
	data  []byte
	pos   int
	lim   Limits
	tape  []tok
	depth int
}

func (p *tapeParser) fail(off int, format string, a ...any) error {
	return &PayloadError{Offset: int64(off), Reason: fmt.Sprintf(format, a...)}
}

// errTapeTooLarge: tape offsets are 32-bit; the reference takes larger
// payloads (when Limits allow them).
var errTapeTooLarge = errors.New("payload too large for the tape")

// parseTape reads data as exactly one JSON value into tape (reused).
func parseTape(data []byte, lim Limits, tape []tok) ([]tok, error) {
	if len(data) > lim.MaxBytes {
		return tape, &PayloadError{Offset: int64(lim.MaxBytes), Reason: fmt.Sprintf("larger than the %d byte limit", lim.MaxBytes)}
	}
	if len(data) > 1<<31-1 {
		return tape, errTapeTooLarge
	}
	p := tapeParser{data: data, lim: lim, tape: tape[:0]}
	p.ws()
	if err := p.value(); err != nil {
		return p.tape, err
	}
	p.ws()
	if p.pos != len(data) {
		return p.tape, p.fail(p.pos, "data after the JSON value")
	}
	return p.tape, nil
}

func (p *tapeParser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *tapeParser) value() error {
	if p.pos >= len(p.data) {
		return p.fail(p.pos, "invalid JSON: unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.lit("true", tTrue)
	case c == 'f':
		return p.lit("false", tFalse)
	case c == 'n':
		return p.lit("null", tNull)
	default:
		return p.fail(p.pos, "invalid JSON: invalid character %q looking for beginning of value", c)
	}
}

func (p *tapeParser) lit(want string, k tokKind) error {
	if len(p.data)-p.pos < len(want) || string(p.data[p.pos:p.pos+len(want)]) != want {
		return p.fail(p.pos, "invalid JSON: invalid literal")
	}
	i := len(p.tape)
	p.tape = append(p.tape, tok{kind: k, start: int32(p.pos), end: int32(p.pos + len(want)), next: int32(i + 1)})
	p.pos += len(want)
	return nil
}

func (p *tapeParser) enter() error {
	if p.depth++; p.depth > p.lim.MaxDepth {
		return p.fail(p.pos, "nested deeper than %d", p.lim.MaxDepth)
	}
	return nil
}

func (p *tapeParser) object() error {
	if err := p.enter(); err != nil {
		return err
	}
	i := len(p.tape)
	p.tape = append(p.tape, tok{kind: tObject, start: int32(p.pos)})
	p.pos++
	p.ws()
	n := int32(0)
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
	} else {
		for {
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return p.fail(p.pos, "invalid JSON: object key must be a string")
			}
			if err := p.str(); err != nil {
				return err
			}
			p.ws()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return p.fail(p.pos, "invalid JSON: missing ':' after object key")
			}
			p.pos++
			p.ws()
			if err := p.value(); err != nil {
				return err
			}
			n++
			p.ws()
			if p.pos >= len(p.data) {
				return p.fail(p.pos, "invalid JSON: unexpected end of input")
			}
			if p.data[p.pos] == ',' {
				p.pos++
				p.ws()
				continue
			}
			if p.data[p.pos] == '}' {
				p.pos++
				break
			}
			return p.fail(p.pos, "invalid JSON: expected ',' or '}' after object member")
		}
	}
	p.depth--
	t := &p.tape[i]
	t.end, t.next, t.n = int32(p.pos), int32(len(p.tape)), n
	return nil
}

func (p *tapeParser) array() error {
	if err := p.enter(); err != nil {
		return err
	}
	i := len(p.tape)
	p.tape = append(p.tape, tok{kind: tArray, start: int32(p.pos)})
	p.pos++
	p.ws()
	n := int32(0)
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
	} else {
		for {
			if err := p.value(); err != nil {
				return err
			}
			n++
			p.ws()
			if p.pos >= len(p.data) {
				return p.fail(p.pos, "invalid JSON: unexpected end of input")
			}
			if p.data[p.pos] == ',' {
				p.pos++
				p.ws()
				continue
			}
			if p.data[p.pos] == ']' {
				p.pos++
				break
			}
			return p.fail(p.pos, "invalid JSON: expected ',' or ']' after array element")
		}
	}
	p.depth--
	t := &p.tape[i]
	t.end, t.next, t.n = int32(p.pos), int32(len(p.tape)), n
	return nil
}

// strSpecial marks the bytes a string scan must stop at.
var strSpecial = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80
	}
	return t
}()

// swarSpecial reports whether any of eight bytes is special in a string:
// a quote, a backslash, a control character or a non-ASCII byte.
func swarSpecial(v uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	return (hasZero(v^(ones*'"')) | hasZero(v^(ones*'\\')) | ((v - ones*0x20) & ^v & highs) | v&highs) != 0
}

// str reads a string; escapes are checked here and decoded on demand.
func (p *tapeParser) str() error {
	start := p.pos + 1
	escaped := false
	i := start
	for {
		for i+8 <= len(p.data) && !swarSpecial(binary.LittleEndian.Uint64(p.data[i:])) {
			i += 8
		}
		for i < len(p.data) && !strSpecial[p.data[i]] {
			i++
		}
		if i >= len(p.data) {
			return p.fail(i, "invalid JSON: unexpected end of input")
		}
		c := p.data[i]
		switch {
		case c == '"':
			p.tape = append(p.tape, tok{kind: tString, escaped: escaped, start: int32(start), end: int32(i), next: int32(len(p.tape) + 1)})
			p.pos = i + 1
			return nil
		case c == '\\':
			escaped = true
			if i+1 >= len(p.data) {
				return p.fail(i, "invalid JSON: unexpected end of input")
			}
			switch p.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(p.data) || !isHex(p.data[i+2]) || !isHex(p.data[i+3]) || !isHex(p.data[i+4]) || !isHex(p.data[i+5]) {
					return p.fail(i, "invalid JSON: invalid \\u escape")
				}
				i += 6
			default:
				return p.fail(i, "invalid JSON: invalid escape in string")
			}
		case c < 0x20:
			return p.fail(i, "invalid JSON: control character in string")
		case c < 0x80:
			i++
		default:
			r, n := utf8.DecodeRune(p.data[i:])
			if r == utf8.RuneError && n <= 1 {
				return p.fail(i, "invalid UTF-8")
			}
			i += n
		}
	}
}

func (p *tapeParser) number() error {
	d, start := p.data, p.pos
	i := start
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	default:
		return p.fail(i, "invalid JSON: invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || !isDigit(d[i]) {
			return p.fail(i, "invalid JSON: invalid number")
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	exp := -1
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		exp = i
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return p.fail(i, "invalid JSON: invalid number")
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	// The reference path counts the whole run of number-like bytes.
	run := i
	for run < len(d) && isNumberByte(d[run]) {
		run++
	}
	if run-start > p.lim.MaxNumberLen {
		return p.fail(start, "number longer than %d characters", p.lim.MaxNumberLen)
	}
	if exp >= 0 && exponentTooLarge(d[exp+1:i]) {
		return p.fail(start, "number exponent beyond ±%d", maxExponent)
	}
	p.tape = append(p.tape, tok{kind: tNumber, start: int32(start), end: int32(i), next: int32(len(p.tape) + 1)})
	p.pos = i
	return nil
}
