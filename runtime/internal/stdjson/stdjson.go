// Package stdjson writes the bytes encoding/json writes, in one pass and
// without its reflection: a Go string as json.Marshal quotes it, a JSON
// text as json.Marshal writes a json.RawMessage holding it, and an
// object's members as json.Marshal writes a map of them. The seller's
// transports put an answer's bytes inside the SDKs' framing with these,
// byte for byte what the SDKs (which marshal with encoding/json, HTML
// escaping on) send for the same answer, without the SDKs' passes over the
// same bytes at each of their layers. The tests hold them to encoding/json.
//
// They work a word at a time (internal/jsonscan): eight bytes are copied
// ahead into the output and kept up to the first one that needs handling.
package stdjson

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/internal/jsonscan"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

const hex = "0123456789abcdef"

// AppendString appends s quoted as json.Marshal quotes a Go string: '"'
// and '\\' escaped, \b \f \n \r \t, other control bytes, '<', '>' and '&'
// as \u00XX, U+2028 and U+2029 as \u2028 and \u2029, and each invalid
// UTF-8 byte as \ufffd.
func AppendString[S []byte | string](dst []byte, str S) []byte {
	s := jsonscan.Bytes(str)
	out, n := ahead(dst, len(s)+2)
	out[n] = '"'
	n++
	for i := 0; ; {
		if len(out)-n < room {
			out = grow(out, n, len(s)-i)
		}
		if i+8 <= len(s) {
			x := jsonscan.Load(s, i)
			jsonscan.Store(out, n, x) // ahead: kept up to the first byte to handle
			m := jsonscan.HTMLQuoteMask(x)
			if m == 0 {
				i, n = i+8, n+8
				continue
			}
			k := jsonscan.First(m)
			i, n = i+k, n+k
		} else if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&':
				out[n] = c
				n++
			case c == '"' || c == '\\':
				out[n], out[n+1] = '\\', c
				n += 2
			case c == '\b', c == '\f', c == '\n', c == '\r', c == '\t':
				out[n], out[n+1] = '\\', shortEscape[c]
				n += 2
			default:
				n += escape(out[n:], '0', '0', c>>4, c&0xF)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += copy(out[n:], `\ufffd`)
		case r == '\u2028' || r == '\u2029':
			n += escape(out[n:], '2', '0', 2, byte(r&0xF))
		default:
			n += copy(out[n:], s[i:i+size])
		}
		i += size
	}
	out[n] = '"'
	return out[:n+1]
}

// shortEscape is the letter of a control byte's two-byte escape.
var shortEscape = [32]byte{'\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// escape writes \u, a and b, and the hex digits of the nibbles c and d.
func escape(out []byte, a, b, c, d byte) int {
	_ = out[5]
	out[0], out[1], out[2], out[3], out[4], out[5] = '\\', 'u', a, b, hex[c], hex[d]
	return 6
}

// room is what a writer keeps free past its output: a word written ahead
// and the longest escape.
const room = 16

// ahead returns dst's spare capacity to write into, grown for about want
// more bytes, and where dst ends in it.
func ahead(dst []byte, want int) (out []byte, n int) {
	n = len(dst)
	if cap(dst)-n < want+room {
		dst = append(dst[:n:n], make([]byte, want+want/8+room)...)
	}
	return dst[:cap(dst)], n
}

// grow is out (written up to n) with room for left more bytes and then
// some: escapes made it longer than planned.
func grow(out []byte, n, left int) []byte {
	next := make([]byte, n+left+n/4+2*room)
	copy(next, out[:n])
	return next
}

// AppendRaw appends what json.Marshal writes for json.RawMessage(src): src
// without insignificant whitespace, with '<', '>', '&', U+2028 and U+2029
// escaped as \u003c, \u003e, \u0026, \u2028 and \u2029. src must be one
// valid JSON text (a reader accepted it, as every answer's body was).
func AppendRaw(dst, src []byte) []byte {
	out, n := ahead(dst, len(src))
	for i := 0; i < len(src); {
		if len(out)-n < room {
			out = grow(out, n, len(src)-i)
		}
		c := src[i]
		i++
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
		default:
			out[n] = c
			n++
			continue
		}
		// A string: its text a word at a time, up to the closing quote.
		out[n] = '"'
		n++
	text:
		for {
			if len(out)-n < room {
				out = grow(out, n, len(src)-i)
			}
			if i+8 <= len(src) {
				x := jsonscan.Load(src, i)
				jsonscan.Store(out, n, x)
				m := jsonscan.HTMLMask(x)
				if m == 0 {
					i, n = i+8, n+8
					continue
				}
				k := jsonscan.First(m)
				i, n = i+k, n+k
			} else if i == len(src) {
				break
			}
			c := src[i]
			i++
			switch c {
			case '"':
				out[n] = c
				n++
				break text
			case '\\':
				out[n] = c
				n++
				if i < len(src) {
					out[n] = src[i]
					n++
					i++
				}
			case '<', '>', '&':
				n += escape(out[n:], '0', '0', c>>4, c&0xF)
			case 0xE2:
				if i+1 < len(src) && src[i] == 0x80 && src[i+1]&^1 == 0xA8 {
					n += escape(out[n:], '2', '0', 2, src[i+1]&0xF)
					i += 2
					continue
				}
				out[n] = c
				n++
			default:
				out[n] = c
				n++
			}
		}
	}
	return out[:n]
}

// HTMLSafe reports text without the bytes json.Marshal's HTML escaping
// rewrites ('<', '>', '&', U+2028, U+2029), found with bytes.IndexByte's
// vector search: a text that has none needs no escaping of them.
func HTMLSafe(b []byte) bool {
	if bytes.IndexByte(b, '<') >= 0 || bytes.IndexByte(b, '>') >= 0 || bytes.IndexByte(b, '&') >= 0 {
		return false
	}
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], 0xE2)
		if j < 0 {
			return true
		}
		i += j + 1
		if i+1 < len(b) && b[i] == 0x80 && b[i+1]&^1 == 0xA8 {
			return false
		}
	}
}

// AppendCompact appends what AppendRaw does for src that the caller knows
// to be compact JSON in valid UTF-8 (an answer's body the seller encoded):
// src itself when it is HTMLSafe, one copy, no pass of its own.
func AppendCompact(dst, src []byte) []byte {
	if HTMLSafe(src) {
		return append(dst, src...)
	}
	return AppendRaw(dst, src)
}

// AppendCompactText appends what AppendString does for src that the
// caller knows to be compact JSON in valid UTF-8: such text holds no
// control byte (JSON strings cannot, and nothing is between its tokens),
// so when it is also HTMLSafe only '"' and '\\' are escaped, with a
// lighter scan.
func AppendCompactText(dst, src []byte) []byte {
	if !HTMLSafe(src) {
		return AppendString(dst, src)
	}
	out, n := ahead(dst, len(src)+len(src)/4+2)
	out[n] = '"'
	n++
	for i := 0; ; {
		if len(out)-n < room {
			out = grow(out, n, len(src)-i)
		}
		if i+8 <= len(src) {
			x := jsonscan.Load(src, i)
			jsonscan.Store(out, n, x)
			m := jsonscan.EndMask(x)
			if m == 0 {
				i, n = i+8, n+8
				continue
			}
			k := jsonscan.First(m)
			i, n = i+k, n+k
		} else if i == len(src) {
			break
		}
		c := src[i]
		if c == '"' || c == '\\' {
			out[n] = '\\'
			n++
		}
		out[n] = c
		n++
		i++
	}
	out[n] = '"'
	return out[:n+1]
}

// Member is a member of a JSON object: its name, unescaped, and its value
// as written.
type Member struct {
	Name  string
	Value []byte
}

// Members are the members of obj (a JSON object a reader accepted) in the
// order json.Marshal writes a map of them: sorted by name, the last of a
// repeated name kept (a map's).
func Members(obj []byte) []Member {
	var ms []Member
	wire.Lenient(obj).Members(func(k, v wire.Lenient) bool {
		name, _ := k.AsString()
		ms = append(ms, Member{name, v})
		return true
	})
	return sorted(ms)
}

// MembersAt is Members for an object whose members lie where spans says
// (seller.Answer.Spans): their names are read, not their values.
func MembersAt(obj []byte, spans []wire.Span) []Member {
	ms := make([]Member, 0, len(spans))
	for _, sp := range spans {
		key := bytes.TrimRight(obj[sp.Key:sp.Start], ": \t\n\r")
		name, _ := wire.Lenient(key).AsString()
		ms = append(ms, Member{name, obj[sp.Start:sp.End:sp.End]})
	}
	return sorted(ms)
}

// sorted sorts ms as json.Marshal writes a map: by name, the last of a
// repeated name kept.
func sorted(ms []Member) []Member {
	// Sorted by name, document order kept among equal names.
	slices.SortStableFunc(ms, func(a, b Member) int { return strings.Compare(a.Name, b.Name) })
	kept := ms[:0]
	for i, m := range ms {
		if i+1 < len(ms) && ms[i+1].Name == m.Name {
			continue
		}
		kept = append(kept, m)
	}
	return kept
}

// Get is the value of the member named name of ms (Members), nil without.
func Get(ms []Member, name string) []byte {
	i, ok := slices.BinarySearchFunc(ms, name, func(m Member, name string) int { return strings.Compare(m.Name, name) })
	if !ok {
		return nil
	}
	return ms[i].Value
}

// AppendMembers appends what json.Marshal writes for a map[string]any
// holding the members ms (Members of an object), each value a
// json.RawMessage of its bytes: each name quoted by AppendString, each
// value by AppendRaw (by AppendCompact when the caller knows the object to
// be compact JSON in valid UTF-8).
func AppendMembers(dst []byte, ms []Member, compact bool) []byte {
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, m.Name)
		dst = append(dst, ':')
		if compact {
			dst = AppendCompact(dst, m.Value)
		} else {
			dst = AppendRaw(dst, m.Value)
		}
	}
	return append(dst, '}')
}
