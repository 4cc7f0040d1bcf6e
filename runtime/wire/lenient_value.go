package wire

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/internal/jsonscan"
)

// Lenient is the bytes of one complete JSON value that ParseLenient
// checked, without surrounding whitespace, read with JavaScript semantics:
// lookups take the last of duplicate keys and "__proto__" is an ordinary
// key. A nil Lenient is JavaScript's undefined (the value is absent); every
// method treats it, and any value of the wrong kind, as absent, like
// optional chaining. Values are sub-slices of the input: nothing is copied.
type Lenient []byte

// Present reports whether the value exists.
func (v Lenient) Present() bool { return len(v) > 0 }

// IsObject is JavaScript's `x != null && typeof x === 'object' &&
// !Array.isArray(x)`.
func (v Lenient) IsObject() bool { return len(v) > 0 && v[0] == '{' }

// IsArray reports a JSON array.
func (v Lenient) IsArray() bool { return len(v) > 0 && v[0] == '[' }

// IsString reports a JSON string.
func (v Lenient) IsString() bool { return len(v) > 0 && v[0] == '"' }

// IsNull reports JSON null.
func (v Lenient) IsNull() bool { return len(v) > 0 && v[0] == 'n' }

// IsNumber reports a JSON number.
func (v Lenient) IsNumber() bool {
	return len(v) > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))
}

// Raw returns the value's bytes (nil when absent).
func (v Lenient) Raw() json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	return json.RawMessage(v)
}

// Truthy is JavaScript truthiness: false, null, 0, -0, "" and undefined are
// falsy; objects and arrays, even empty, are truthy.
func (v Lenient) Truthy() bool {
	if len(v) == 0 {
		return false
	}
	switch v[0] {
	case 'n', 'f':
		return false
	case 't', '{', '[':
		return true
	case '"':
		return len(v) > 2
	default:
		f, _ := v.Number()
		return f != 0 // a JSON number is never NaN; 1e-400 is 0 as in JavaScript
	}
}

// Number returns a JSON number as JavaScript reads it: huge literals such
// as 1e400 become ±Inf. ok is false for other kinds.
func (v Lenient) Number() (float64, bool) {
	if !v.IsNumber() {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}

// AsString decodes a JSON string; ok is false for other kinds. Lone
// surrogate escapes become U+FFFD.
func (v Lenient) AsString() (string, bool) {
	if !v.IsString() {
		return "", false
	}
	if !hasBackslash(v) {
		return string(v[1 : len(v)-1]), true
	}
	return string(v.appendText(nil)), true
}

// StringIs reports whether v is the JSON string s, without allocating.
func (v Lenient) StringIs(s string) bool {
	if !v.IsString() {
		return false
	}
	if !hasBackslash(v) {
		return string(v[1:len(v)-1]) == s
	}
	var buf [64]byte
	return string(v.appendText(buf[:0])) == s
}

// Text appends the decoded contents of a JSON string to dst; other kinds
// append nothing.
func (v Lenient) Text(dst []byte) []byte {
	if !v.IsString() {
		return dst
	}
	return v.appendText(dst)
}

// TextLen is the byte length Text appends, computed without decoding, so
// oversized strings can be refused before any copy.
func (v Lenient) TextLen() int {
	if !v.IsString() {
		return 0
	}
	s := v[1 : len(v)-1]
	n := 0
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			n++
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == 'u' {
			r, k := lenientRune(s[i:])
			n += utf8.RuneLen(r)
			i += k
			continue
		}
		n++
		i += 2
	}
	return n
}

func hasBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// appendText unescapes the quoted string v onto dst.
func (v Lenient) appendText(dst []byte) []byte {
	if len(v) < 2 {
		return dst
	}
	s := v[1 : len(v)-1]
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(s) {
			break
		}
		switch s[i+1] {
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
			r, n := lenientRune(s[i:])
			dst = utf8.AppendRune(dst, r)
			i += n
			continue
		default: // '"', '\\', '/'
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}

// Members calls fn for each member of an object in document order,
// duplicates included, until fn returns false. Keys are quoted JSON
// strings (use String or StringIs).
func (v Lenient) Members(fn func(key, val Lenient) bool) {
	v.memberSpans(func(key Lenient, _, start, end int) bool { return fn(key, v[start:end:end]) })
}

// Elems calls fn for each element of an array until fn returns false.
func (v Lenient) Elems(fn func(elem Lenient) bool) {
	if !v.IsArray() {
		return
	}
	i := skipSpace(v, 1)
	for i < len(v) && v[i] != ']' {
		end := skipValue(v, i)
		if end <= i {
			return
		}
		if !fn(v[i:end:end]) {
			return
		}
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
}

// Get returns the member named key, the last one when the key repeats (as
// JSON.parse keeps it), or nil.
func (v Lenient) Get(key string) Lenient {
	var found Lenient
	v.Members(func(k, val Lenient) bool {
		if k.StringIs(key) {
			found = val
		}
		return true
	})
	return found
}

// Fields looks up several keys in one pass: out[i] gets the member named
// keys[i] (the last one when the key repeats), or stays nil.
func (v Lenient) Fields(keys []string, out []Lenient) {
	v.Members(func(k, val Lenient) bool {
		for i, key := range keys {
			if k.StringIs(key) {
				out[i] = val
				break
			}
		}
		return true
	})
}

// Index returns the n-th array element, or nil.
func (v Lenient) Index(n int) Lenient {
	var found Lenient
	i := 0
	v.Elems(func(e Lenient) bool {
		if i == n {
			found = e
			return false
		}
		i++
		return true
	})
	return found
}

// OnlyKey reports whether the object's keys, after JSON.parse merges
// duplicates, are exactly [key].
func (v Lenient) OnlyKey(key string) bool {
	n := 0
	only := true
	v.Members(func(k, _ Lenient) bool {
		n++
		only = k.StringIs(key)
		return only
	})
	return n > 0 && only
}

// CompactLen is the length in bytes of the value's compact JSON text: its
// bytes without insignificant whitespace (JSON.stringify's length for
// ASCII-escaped input).
func (v Lenient) CompactLen() int {
	n := 0
	inString, escape := false, false
	for _, c := range v {
		switch {
		case inString:
			n++
			switch {
			case escape:
				escape = false
			case c == '\\':
				escape = true
			case c == '"':
				inString = false
			}
		case isSpace(c):
		default:
			n++
			if c == '"' {
				inString = true
			}
		}
	}
	return n
}

// AppendCompact appends the value without insignificant whitespace.
func (v Lenient) AppendCompact(dst []byte) []byte {
	inString, escape := false, false
	for _, c := range v {
		switch {
		case inString:
			switch {
			case escape:
				escape = false
			case c == '\\':
				escape = true
			case c == '"':
				inString = false
			}
		case isSpace(c):
			continue
		case c == '"':
			inString = true
		}
		dst = append(dst, c)
	}
	return dst
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString returns the offset past the checked string starting at b[i].
func skipString(b []byte, i int) int {
	for i++; ; {
		if i+8 <= len(b) { // a word at a time up to a quote or a backslash
			m := jsonscan.EndMask(jsonscan.Load(b, i))
			if m == 0 {
				i += 8
				continue
			}
			i += jsonscan.First(m)
		} else {
			for i < len(b) && b[i] != '"' && b[i] != '\\' {
				i++
			}
			if i >= len(b) {
				return len(b)
			}
		}
		if b[i] == '"' {
			return i + 1
		}
		i += 2 // an escape
	}
}

// structural marks the bytes skipValue stops at inside containers.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// skipValue returns the offset past the checked value starting at b[i],
// counting brackets rather than re-checking the grammar.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			c := b[i]
			if !structural[c] {
				i++
				continue
			}
			if c != '"' {
				if c == '{' || c == '[' {
					depth++
				} else if depth--; depth == 0 {
					return i + 1
				}
				i++
				continue
			}
			// A string, a word at a time up to its closing quote.
			for i++; ; {
				if i+8 <= len(b) {
					if m := jsonscan.EndMask(jsonscan.Load(b, i)); m == 0 {
						i += 8
						continue
					} else {
						i += jsonscan.First(m)
					}
				} else {
					for i < len(b) && b[i] != '"' && b[i] != '\\' {
						i++
					}
					if i >= len(b) {
						return len(b)
					}
				}
				if b[i] == '"' {
					i++
					break
				}
				i += 2 // an escape
			}
		}
		return len(b)
	default:
		j := i
		for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ':' {
			j++
		}
		return j
	}
}
