package runtime

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
)

// jval is the bytes of one complete JSON value, already checked by
// parseDocument, with no surrounding whitespace. A nil jval is JavaScript's
// undefined (the value is absent).
type jval []byte

func (v jval) present() bool { return len(v) > 0 }

// isObject is the seeds' test `x != null && typeof x === 'object' && !Array.isArray(x)`.
func (v jval) isObject() bool { return len(v) > 0 && v[0] == '{' }
func (v jval) isArray() bool  { return len(v) > 0 && v[0] == '[' }
func (v jval) isString() bool { return len(v) > 0 && v[0] == '"' }
func (v jval) isNull() bool   { return len(v) > 0 && v[0] == 'n' }
func (v jval) isNumber() bool {
	return len(v) > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))
}

// raw returns the value's bytes as a json.RawMessage (nil when absent).
func (v jval) raw() json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	return json.RawMessage(v)
}

// truthy is JavaScript truthiness of the parsed value: false, null, 0, -0,
// "" and undefined are falsy; objects and arrays (even empty) are truthy.
func (v jval) truthy() bool {
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
		f, _ := v.number()
		return f != 0 // a JSON number is never NaN; 1e-400 is 0 as in JS
	}
}

// number returns the value of a JSON number as JavaScript reads it: huge
// literals such as 1e400 become ±Inf. ok is false for non-numbers.
func (v jval) number() (float64, bool) {
	if !v.isNumber() {
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

// str decodes a JSON string; ok is false for other kinds.
func (v jval) str() (string, bool) {
	if !v.isString() {
		return "", false
	}
	if !hasBackslash(v) {
		return string(v[1 : len(v)-1]), true
	}
	return string(decodeString(nil, v)), true
}

// strIs reports whether v is the JSON string s, without allocating.
func (v jval) strIs(s string) bool {
	return v.isString() && quotedEquals(v, s)
}

func hasBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// quotedEquals compares a quoted JSON string with s after unescaping.
func quotedEquals(q []byte, s string) bool {
	if len(q) < 2 {
		return false
	}
	if !hasBackslash(q) {
		return string(q[1:len(q)-1]) == s
	}
	var buf [64]byte
	return string(decodeString(buf[:0], q)) == s
}

// utf16Len is JavaScript's String.prototype.length of the decoded string.
func utf16Len(s string) int {
	n := 0
	for _, r := range s { // invalid UTF-8 bytes range as U+FFFD: one unit each
		n += utf16.RuneLen(r)
	}
	return n
}

// members calls fn for each member of an object in document order (duplicates
// included) until fn returns false. v must have been checked by
// parseDocument; on anything else it stops early but never panics.
func (v jval) members(fn func(key, val jval) bool) {
	if !v.isObject() {
		return
	}
	i := skipSpace(v, 1)
	for i < len(v) && v[i] == '"' {
		kend := skipString(v, i)
		key := v[i:kend]
		j := skipSpace(v, kend)
		if j >= len(v) || v[j] != ':' {
			return
		}
		j = skipSpace(v, j+1)
		vend := skipValue(v, j)
		if vend <= j {
			return
		}
		if !fn(jval(key), v[j:vend:vend]) {
			return
		}
		i = skipSpace(v, vend)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
}

// elems calls fn for each element of an array until fn returns false.
func (v jval) elems(fn func(elem jval) bool) {
	if !v.isArray() {
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

// skipString returns the offset past the string starting at b[i], which
// parseDocument has checked: it only looks for the closing quote.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	return len(b)
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
			switch c {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			default:
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
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

// get returns the member named key, the last one when the key repeats (as
// JSON.parse keeps it), or nil. It is nil for non-objects, like
// JavaScript's optional chaining.
func (v jval) get(key string) jval {
	var found jval
	v.members(func(k, val jval) bool {
		if quotedEquals(k, key) {
			found = val
		}
		return true
	})
	return found
}

// fields looks up several keys in one pass: out[i] gets the member named
// keys[i] (the last one when the key repeats), or stays nil.
func (v jval) fields(keys []string, out []jval) {
	v.members(func(k, val jval) bool {
		for i, key := range keys {
			if quotedEquals(k, key) {
				out[i] = val
				break
			}
		}
		return true
	})
}

// index returns the i-th array element or nil.
func (v jval) index(n int) jval {
	var found jval
	i := 0
	v.elems(func(e jval) bool {
		if i == n {
			found = e
			return false
		}
		i++
		return true
	})
	return found
}

// onlyKey reports whether the object's keys, after JSON.parse merges
// duplicates, are exactly [key].
func (v jval) onlyKey(key string) bool {
	n := 0
	only := true
	v.members(func(k, _ jval) bool {
		n++
		only = quotedEquals(k, key)
		return only
	})
	return n > 0 && only
}

// hasKey reports whether the object has a member named key.
func (v jval) hasKey(key string) bool {
	found := false
	v.members(func(k, _ jval) bool {
		found = quotedEquals(k, key)
		return !found
	})
	return found
}
