package sellerstore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting, as the strict decoders of runtime/wire do.
const maxDepth = 512

// Canonical returns the canonical form of the JSON value in data, the bytes
// an idempotency fingerprint hashes. Two requests that mean the same JSON
// have the same canonical form:
//
//   - no whitespace between tokens;
//   - object members sorted by key, keys compared as sequences of UTF-16
//     code units after unescaping (the order of RFC 8785, section 3.2.3);
//   - strings written with the fewest escapes (RFC 8785, as JSON.stringify):
//     \" \\ \b \f \n \r \t, other characters below U+0020 as \u00xx in
//     lower case, everything else as its UTF-8 bytes ("/" and non-ASCII
//     included), so "\u00e9" and "é" are the same string;
//   - numbers exactly as written. Unlike RFC 8785, which rewrites them as
//     IEEE doubles, 1, 1.0 and 1e0 stay distinct and an integer beyond 2^53
//     keeps every digit: a buyer's retry resends its own bytes, and a
//     rounded budget or id must never match a different one;
//   - true, false and null as themselves.
//
// Members of a top-level object whose names are in exclude are dropped: a
// seller excludes "idempotency_key" (it is the record's key, not part of
// the request) and may exclude "context" (echoed back, not acted on).
//
// Input without a single meaning is rejected with ErrInvalid: malformed
// JSON, data after the value, invalid UTF-8, an escaped lone surrogate, a
// duplicate key (compared after unescaping), nesting deeper than 512.
func Canonical(data []byte, exclude ...string) ([]byte, error) {
	p := canonParser{data: data}
	p.skipSpace()
	out, err := p.value(nil, exclude)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.fail("data after the JSON value")
	}
	return out, nil
}

// Fingerprint hashes canonical bytes: "sha256:" and 64 hex digits.
func Fingerprint(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

type canonParser struct {
	data  []byte
	pos   int
	depth int
}

func (p *canonParser) fail(msg string) error {
	return fmt.Errorf("sellerstore: canonical JSON: offset %d: %s: %w", p.pos, msg, ErrInvalid)
}

func (p *canonParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value appends the canonical form of the value at p.pos to out; exclude
// applies to the members of an object at this level.
func (p *canonParser) value(out []byte, exclude []string) ([]byte, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(out, exclude)
	case c == '[':
		return p.array(out)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return appendString(out, s), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(out)
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(p.data)-p.pos >= len(lit) && string(p.data[p.pos:p.pos+len(lit)]) == lit {
			p.pos += len(lit)
			return append(out, lit...), nil
		}
	}
	return nil, p.fail("invalid JSON value")
}

func (p *canonParser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.fail(fmt.Sprintf("nesting deeper than %d", maxDepth))
	}
	return nil
}

type canonMember struct {
	key   string
	value []byte
}

func (p *canonParser) object(out []byte, exclude []string) ([]byte, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	start := p.pos
	p.pos++ // '{'
	var members []canonMember
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
	} else {
		for {
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return nil, p.fail("want an object key")
			}
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return nil, p.fail("want ':'")
			}
			p.pos++
			p.skipSpace()
			v, err := p.value(nil, nil)
			if err != nil {
				return nil, err
			}
			members = append(members, canonMember{key, v})
			p.skipSpace()
			if p.pos < len(p.data) && p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.data) && p.data[p.pos] == '}' {
				p.pos++
				break
			}
			return nil, p.fail("want ',' or '}'")
		}
	}
	p.depth--
	slices.SortStableFunc(members, func(a, b canonMember) int { return compareUTF16(a.key, b.key) })
	for i := 1; i < len(members); i++ {
		if members[i].key == members[i-1].key {
			p.pos = start
			return nil, p.fail(fmt.Sprintf("object has the key %q twice", members[i].key))
		}
	}
	out = append(out, '{')
	first := true
	for _, m := range members {
		if slices.Contains(exclude, m.key) {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = appendString(out, m.key)
		out = append(out, ':')
		out = append(out, m.value...)
	}
	return append(out, '}'), nil
}

func (p *canonParser) array(out []byte) ([]byte, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++ // '['
	out = append(out, '[')
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return append(out, ']'), nil
	}
	for {
		p.skipSpace()
		var err error
		if out, err = p.value(out, nil); err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			out = append(out, ',')
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			p.depth--
			return append(out, ']'), nil
		}
		return nil, p.fail("want ',' or ']'")
	}
}

// number checks the JSON number grammar and copies the literal.
func (p *canonParser) number(out []byte) ([]byte, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.data) && p.data[p.pos] == '0':
		p.pos++
	case digits() == 0:
		return nil, p.fail("malformed number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.fail("malformed number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail("malformed number")
		}
	}
	return append(out, p.data[start:p.pos]...), nil
}

// str reads the string at p.pos and returns it unescaped.
func (p *canonParser) str() (string, error) {
	p.pos++ // opening quote
	var buf []byte
	for {
		if p.pos >= len(p.data) {
			return "", p.fail("unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c == '\\':
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			buf = utf8.AppendRune(buf, r)
		case c < 0x20:
			return "", p.fail("control character in string")
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.pos++
		default:
			r, n := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && n == 1 {
				return "", p.fail("invalid UTF-8")
			}
			buf = append(buf, p.data[p.pos:p.pos+n]...)
			p.pos += n
		}
	}
}

// escape reads one escape sequence (a surrogate pair is one) at p.pos.
func (p *canonParser) escape() (rune, error) {
	if p.pos+1 >= len(p.data) {
		return 0, p.fail("unterminated escape")
	}
	c := p.data[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, err := p.hex4()
		if err != nil {
			return 0, err
		}
		if !utf16.IsSurrogate(r) {
			return r, nil
		}
		if r < 0xdc00 && p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
			p.pos += 2
			lo, err := p.hex4()
			if err != nil {
				return 0, err
			}
			if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
				return pair, nil
			}
		}
		return 0, p.fail("lone surrogate escape")
	}
	p.pos--
	return 0, p.fail(fmt.Sprintf("invalid escape \\%c", c))
}

func (p *canonParser) hex4() (rune, error) {
	if len(p.data)-p.pos < 4 {
		return 0, p.fail("short \\u escape")
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, p.fail("bad hex digit in \\u escape")
		}
	}
	p.pos += 4
	return r, nil
}

// appendString writes s (valid UTF-8) with the fewest escapes.
func appendString(out []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c == '\b':
			out = append(out, '\\', 'b')
		case c == '\f':
			out = append(out, '\\', 'f')
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\r':
			out = append(out, '\\', 'r')
		case c == '\t':
			out = append(out, '\\', 't')
		case c < 0x20:
			out = append(out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

// compareUTF16 orders a and b (valid UTF-8) by their UTF-16 code units.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := utf16Units(ra), utf16Units(rb)
			if ua[0] != ub[0] {
				return int(ua[0]) - int(ub[0])
			}
			return int(ua[1]) - int(ub[1])
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

// utf16Units is r in UTF-16: one unit and a zero, or a surrogate pair.
func utf16Units(r rune) [2]uint16 {
	if r < 0x10000 {
		return [2]uint16{uint16(r), 0}
	}
	hi, lo := utf16.EncodeRune(r)
	return [2]uint16{uint16(hi), uint16(lo)}
}
