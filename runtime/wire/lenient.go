package wire

import (
	"unicode/utf8"
)

// The lenient reader: JSON as JavaScript's JSON.parse reads it, which the
// AdCP extraction algorithms are written against. Unlike the strict decoder
// it keeps "__proto__", "constructor" and "prototype" as plain data, accepts
// duplicate keys (the last one wins on lookup), invalid UTF-8 and lone
// surrogate escapes. It still rejects what JSON.parse rejects (control
// characters in strings, bad escapes, trailing commas, anything after the
// value) and nests no deeper than DefaultMaxDepth. Failures are *DecodeError
// values with a pointer and an offset, like the strict decoder's.

// ParseLenient checks that data holds exactly one JSON value (with optional
// surrounding whitespace) and returns that value without the whitespace.
// The result shares data's bytes.
func ParseLenient(data []byte) (Lenient, error) {
	d := decoderPool.Get().(*Decoder)
	defer d.release()
	d.reset(data, DecodeOptions{})
	d.skipWS()
	start := d.pos
	if err := d.lenientValue(false); err != nil {
		return nil, err
	}
	end := d.pos
	if err := d.End(); err != nil {
		return nil, err
	}
	return Lenient(data[start:end:end]), nil
}

// DuplicateKey reports, as a *DecodeError of KindDuplicate whose pointer names
// the repeated key, the first object key that occurs twice in one object at
// any depth (compared after unescaping). Data that ParseLenient rejects has
// no keys to compare: the result is nil.
func DuplicateKey(data []byte) error {
	// One pass when the data is a clean value, which is the common case
	// (a verifier runs this on every signed body); a second only to tell a
	// duplicate in valid data from one in data ParseLenient rejects.
	d := decoderPool.Get().(*Decoder)
	defer d.release()
	d.reset(data, DecodeOptions{})
	err := d.lenientValue(true)
	if de, ok := err.(*DecodeError); ok && de.Kind == KindDuplicate {
		if _, perr := ParseLenient(data); perr == nil {
			return err
		}
	}
	return nil
}

// lenientValue checks one value; with dups it also rejects duplicate keys.
func (d *Decoder) lenientValue(dups bool) error {
	switch c := d.skipWS(); c {
	case '{':
		return d.lenientObject(dups)
	case '[':
		if err := d.ArrayStart(); err != nil {
			return err
		}
		for {
			ok, err := d.NextElem()
			if err != nil || !ok {
				return err
			}
			if err := d.lenientValue(dups); err != nil {
				return err
			}
		}
	case '"':
		return d.lenientString()
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	default:
		if d.pos >= len(d.buf) {
			return d.syntaxErr("want a value, got end of input")
		}
		if c == '-' || (c >= '0' && c <= '9') {
			_, _, err := d.scanNumber()
			return err
		}
		return d.syntaxErr("want a value, got " + describeByte(c))
	}
}

// lenientObject checks an object; keys are read leniently and never
// refused for their name.
func (d *Decoder) lenientObject(dups bool) error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	spanBase, textBase := len(d.keySpans), len(d.keyText)
	defer func() { d.keySpans, d.keyText = d.keySpans[:spanBase], d.keyText[:textBase] }()
	var set map[string]struct{}
	for {
		f := &d.stack[len(d.stack)-1]
		c := d.skipWS()
		if c == '}' {
			d.pos++
			d.pop()
			return nil
		}
		if f.count > 0 {
			if c != ',' {
				return d.syntaxErr("want ',' or '}' after an object member, got " + describeByte(c))
			}
			d.pos++
			c = d.skipWS()
		}
		if c != '"' {
			return d.syntaxErr("want a string key, got " + describeByte(c))
		}
		f.count++
		f.keyStart = -1
		start := d.pos
		if err := d.lenientString(); err != nil {
			return err
		}
		f.keyStart, f.keyEnd = start+1, d.pos-1
		if dups {
			key := Lenient(d.buf[start:d.pos]).appendText(d.keyBuf[:0])
			d.keyBuf = key
			if dupKey(d, spanBase, &set, key) {
				return d.Duplicate(key)
			}
		}
		if c = d.skipWS(); c != ':' {
			return d.syntaxErr("want ':' after an object key, got " + describeByte(c))
		}
		d.pos++
		if err := d.lenientValue(dups); err != nil {
			return err
		}
	}
}

// dupKey records key among the keys of the object whose spans start at
// spanBase and reports whether it was there already: a linear scan of the
// decoder's key buffer, a set once the object grows large.
func dupKey(d *Decoder, spanBase int, set *map[string]struct{}, key []byte) bool {
	if *set != nil {
		if _, dup := (*set)[string(key)]; dup {
			return true
		}
		(*set)[string(key)] = struct{}{}
		return false
	}
	mine := d.keySpans[spanBase:]
	for _, s := range mine {
		if string(d.keyText[s.off:s.off+s.n]) == string(key) {
			return true
		}
	}
	if len(mine) < maxLinearKeys {
		d.keySpans = append(d.keySpans, keySpan{int32(len(d.keyText)), int32(len(key))})
		d.keyText = append(d.keyText, key...)
		return false
	}
	*set = make(map[string]struct{}, 2*len(mine))
	for _, s := range mine {
		(*set)[string(d.keyText[s.off:s.off+s.n])] = struct{}{}
	}
	(*set)[string(key)] = struct{}{}
	return false
}

// lenientString checks the string at d.pos as JSON.parse does: any byte but
// a control character, and escapes from JSON's set; it does not judge UTF-8
// or surrogate pairing.
func (d *Decoder) lenientString() error {
	start := d.pos
	for i := start + 1; i < len(d.buf); {
		switch c := d.buf[i]; {
		case c == '"':
			d.pos = i + 1
			return nil
		case c < 0x20:
			d.pos = i
			return d.syntaxErr("control character " + describeByte(c) + " in string")
		case c == '\\':
			if i+1 >= len(d.buf) {
				d.pos = i
				return d.syntaxErr("unterminated string")
			}
			switch d.buf[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, ok := hex4(d.buf, i+2); !ok {
					d.pos = i
					return d.syntaxErr("malformed \\u escape")
				}
				i += 6
			default:
				d.pos = i
				return d.syntaxErr("invalid escape \\" + string(rune(d.buf[i+1])) + " in string")
			}
		default:
			i++
		}
	}
	d.pos = start
	return d.syntaxErr("unterminated string")
}

// lenientRune decodes the \u escape (or surrogate pair) at the start of s,
// which ParseLenient has checked, and returns the rune and the bytes
// consumed. A lone surrogate becomes U+FFFD, as in encoding/json.
func lenientRune(s []byte) (rune, int) {
	r, ok := hex4(s, 2)
	if !ok {
		return utf8.RuneError, min(len(s), 2)
	}
	if r >= 0xD800 && r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if lo, ok := hex4(s, 8); ok && lo >= 0xDC00 && lo < 0xE000 {
			return (r-0xD800)<<10 | (lo - 0xDC00) + 0x10000, 12
		}
	}
	if r >= 0xD800 && r < 0xE000 {
		return utf8.RuneError, 6
	}
	return r, 6
}
