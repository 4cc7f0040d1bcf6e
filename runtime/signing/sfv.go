package signing

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// This file is the subset of RFC 8941 (Structured Field Values) that
// Signature-Input, Signature and Content-Digest use: Dictionaries of Items
// and Inner Lists with Parameters. It is stricter than RFC 8941 where the
// AdCP profile is (security.mdx step 1): a duplicate dictionary key or
// parameter is an error, never "the last one wins", because a proxy could
// otherwise smuggle a second, weaker value past a verifier that read the
// first. Byte sequences keep their text: the profile decides the alphabet.

type sfKind uint8

const (
	sfInteger sfKind = iota + 1
	sfDecimal
	sfString
	sfToken
	sfBinary
	sfBoolean
	sfInnerList
)

func (k sfKind) String() string {
	return [...]string{"", "integer", "decimal", "string", "token", "byte sequence", "boolean", "inner list"}[k]
}

// sfItem is a bare item, or an inner list, with its parameters.
type sfItem struct {
	kind   sfKind
	i      int64    // integer
	text   string   // decimal digits, string or token value, byte sequence text
	b      bool     // boolean
	list   []sfItem // inner list members
	params []sfParam
}

type sfParam struct {
	key string
	val sfItem // a bare item, no parameters
}

type sfMember struct {
	key string
	val sfItem
}

// sfParser walks one field value.
type sfParser struct {
	s   string
	pos int
}

func (p *sfParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *sfParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *sfParser) skipSP() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *sfParser) skipOWS() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

// parseDictionary parses an sf-dictionary (RFC 8941 §4.2.2), refusing a key
// that occurs twice.
func parseDictionary(s string) ([]sfMember, error) {
	p := &sfParser{s: s}
	p.skipSP()
	out := make([]sfMember, 0, 2)
	for p.pos < len(p.s) {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		for _, m := range out {
			if m.key == key {
				return nil, p.errorf("dictionary key %q occurs twice", key)
			}
		}
		var val sfItem
		if p.peek() == '=' {
			p.pos++
			if val, err = p.itemOrInnerList(); err != nil {
				return nil, err
			}
		} else {
			val = sfItem{kind: sfBoolean, b: true}
			if val.params, err = p.parameters(); err != nil {
				return nil, err
			}
		}
		out = append(out, sfMember{key: key, val: val})
		p.skipOWS()
		if p.pos == len(p.s) {
			return out, nil
		}
		if p.s[p.pos] != ',' {
			return nil, p.errorf("want ',' between dictionary members, got %q", p.s[p.pos])
		}
		p.pos++
		p.skipOWS()
		if p.pos == len(p.s) {
			return nil, p.errorf("trailing ',' after the last dictionary member")
		}
	}
	if len(out) == 0 {
		return nil, errors.New("empty dictionary")
	}
	return out, nil
}

func (p *sfParser) itemOrInnerList() (sfItem, error) {
	if p.peek() == '(' {
		return p.innerList()
	}
	it, err := p.bareItem()
	if err != nil {
		return sfItem{}, err
	}
	it.params, err = p.parameters()
	return it, err
}

func (p *sfParser) innerList() (sfItem, error) {
	p.pos++ // '('
	out := sfItem{kind: sfInnerList, list: make([]sfItem, 0, 6)}
	for {
		p.skipSP()
		if p.peek() == ')' {
			p.pos++
			var err error
			out.params, err = p.parameters()
			return out, err
		}
		if p.pos == len(p.s) {
			return sfItem{}, p.errorf("inner list is not closed")
		}
		it, err := p.bareItem()
		if err != nil {
			return sfItem{}, err
		}
		if it.params, err = p.parameters(); err != nil {
			return sfItem{}, err
		}
		out.list = append(out.list, it)
		if p.pos == len(p.s) {
			return sfItem{}, p.errorf("inner list is not closed")
		}
		if c := p.peek(); c != ' ' && c != ')' {
			return sfItem{}, p.errorf("want ' ' or ')' in an inner list, got %q", c)
		}
	}
}

// parameters parses *( ";" *SP key [ "=" bare-item ] ), refusing a key
// that occurs twice (the AdCP profile's "tag MUST appear exactly once",
// applied to every parameter).
func (p *sfParser) parameters() ([]sfParam, error) {
	if p.peek() != ';' {
		return nil, nil
	}
	out := make([]sfParam, 0, 6)
	for p.peek() == ';' {
		p.pos++
		p.skipSP()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		for _, q := range out {
			if q.key == key {
				return nil, p.errorf("parameter %q occurs twice", key)
			}
		}
		val := sfItem{kind: sfBoolean, b: true}
		if p.peek() == '=' {
			p.pos++
			if val, err = p.bareItem(); err != nil {
				return nil, err
			}
		}
		out = append(out, sfParam{key: key, val: val})
	}
	return out, nil
}

func isLCAlpha(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isTChar is RFC 9110's tchar.
func isTChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func (p *sfParser) key() (string, error) {
	start := p.pos
	if c := p.peek(); !isLCAlpha(c) && c != '*' {
		return "", p.errorf("want a key (lowercase letter or '*'), got %q", c)
	}
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if !isLCAlpha(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '*' {
			break
		}
		p.pos++
	}
	return p.s[start:p.pos], nil
}

func (p *sfParser) bareItem() (sfItem, error) {
	c := p.peek()
	switch {
	case c == '-' || isDigit(c):
		return p.number()
	case c == '"':
		return p.str()
	case c == '*' || isAlpha(c):
		start := p.pos
		p.pos++
		for p.pos < len(p.s) && (isTChar(p.s[p.pos]) || p.s[p.pos] == ':' || p.s[p.pos] == '/') {
			p.pos++
		}
		return sfItem{kind: sfToken, text: p.s[start:p.pos]}, nil
	case c == ':':
		p.pos++
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] != ':' {
			b := p.s[p.pos]
			if !isAlpha(b) && !isDigit(b) && strings.IndexByte("+/=-_", b) < 0 {
				return sfItem{}, p.errorf("byte %q is not base64 inside a byte sequence", b)
			}
			p.pos++
		}
		if p.pos == len(p.s) {
			return sfItem{}, p.errorf("byte sequence is not closed")
		}
		text := p.s[start:p.pos]
		p.pos++
		return sfItem{kind: sfBinary, text: text}, nil
	case c == '?':
		p.pos++
		switch p.peek() {
		case '0', '1':
			b := p.peek() == '1'
			p.pos++
			return sfItem{kind: sfBoolean, b: b}, nil
		}
		return sfItem{}, p.errorf("boolean is not ?0 or ?1")
	case c == 0:
		return sfItem{}, p.errorf("want an item, got the end of the value")
	}
	return sfItem{}, p.errorf("byte %q cannot start an item", c)
}

func (p *sfParser) number() (sfItem, error) {
	start := p.pos
	if p.peek() == '-' {
		p.pos++
	}
	digits, dot := 0, -1
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if isDigit(c) {
			digits++
		} else if c == '.' && dot < 0 {
			dot = digits
		} else {
			break
		}
		p.pos++
	}
	text := p.s[start:p.pos]
	if digits == 0 {
		return sfItem{}, p.errorf("number without digits")
	}
	if dot < 0 {
		if digits > 15 {
			return sfItem{}, p.errorf("integer of more than 15 digits")
		}
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return sfItem{}, p.errorf("integer %q: %v", text, err)
		}
		return sfItem{kind: sfInteger, i: n}, nil
	}
	if dot > 12 || digits-dot < 1 || digits-dot > 3 {
		return sfItem{}, p.errorf("decimal %q out of range", text)
	}
	return sfItem{kind: sfDecimal, text: text}, nil
}

func (p *sfParser) str() (sfItem, error) {
	p.pos++ // '"'
	// Fast path: no escape before the closing quote, the value is a slice
	// of the field.
	for i := p.pos; i < len(p.s); i++ {
		c := p.s[i]
		if c == '"' {
			text := p.s[p.pos:i]
			p.pos = i + 1
			return sfItem{kind: sfString, text: text}, nil
		}
		if c == '\\' || c < 0x20 || c > 0x7e {
			break
		}
	}
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		p.pos++
		switch {
		case c == '\\':
			if p.pos == len(p.s) || (p.s[p.pos] != '"' && p.s[p.pos] != '\\') {
				return sfItem{}, p.errorf("string escape is not \\\" or \\\\")
			}
			b.WriteByte(p.s[p.pos])
			p.pos++
		case c == '"':
			return sfItem{kind: sfString, text: b.String()}, nil
		case c < 0x20 || c > 0x7e:
			return sfItem{}, p.errorf("byte 0x%02x is not allowed in a string", c)
		default:
			b.WriteByte(c)
		}
	}
	return sfItem{}, p.errorf("string is not closed")
}

// appendItem serializes a bare item or inner list with its parameters
// (RFC 8941 §4.1), as the @signature-params component requires.
func appendItem(b []byte, it sfItem) []byte {
	switch it.kind {
	case sfInnerList:
		b = append(b, '(')
		for i, m := range it.list {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendItem(b, m)
		}
		b = append(b, ')')
	case sfInteger:
		b = strconv.AppendInt(b, it.i, 10)
	case sfDecimal, sfToken:
		b = append(b, it.text...)
	case sfString:
		b = appendSFString(b, it.text)
	case sfBinary:
		b = append(b, ':')
		b = append(b, it.text...)
		b = append(b, ':')
	case sfBoolean:
		if it.b {
			b = append(b, "?1"...)
		} else {
			b = append(b, "?0"...)
		}
	}
	for _, p := range it.params {
		b = append(b, ';')
		b = append(b, p.key...)
		if p.val.kind == sfBoolean && p.val.b {
			continue
		}
		b = append(b, '=')
		b = appendItem(b, p.val)
	}
	return b
}

func appendSFString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
