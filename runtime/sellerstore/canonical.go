package sellerstore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

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
// Input without a single meaning is rejected with ErrInvalid, wrapping the
// *wire.DecodeError that says where: anything runtime/wire's strict reader
// refuses (malformed JSON, data after the value, invalid UTF-8, an escaped
// lone surrogate, a duplicate key compared after unescaping, a "__proto__",
// "constructor" or "prototype" key, nesting deeper than 512).
func Canonical(data []byte, exclude ...string) ([]byte, error) {
	if err := wire.Valid(data); err != nil {
		return nil, fmt.Errorf("sellerstore: canonical JSON: %w: %w", err, ErrInvalid)
	}
	v, err := wire.ParseLenient(data)
	if err != nil { // unreachable: strict JSON is lenient JSON
		return nil, fmt.Errorf("sellerstore: canonical JSON: %w: %w", err, ErrInvalid)
	}
	return appendCanonical(nil, v, exclude), nil
}

// Fingerprint hashes canonical bytes: "sha256:" and 64 hex digits.
func Fingerprint(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// member is one object member: its unescaped key and its value.
type member struct {
	key string
	val wire.Lenient
}

// appendCanonical writes v, which wire.Valid accepted, in canonical form;
// exclude drops members of an object at this level.
func appendCanonical(out []byte, v wire.Lenient, exclude []string) []byte {
	switch {
	case v.IsObject():
		var ms []member
		v.Members(func(k, val wire.Lenient) bool {
			if key := string(k.Text(nil)); !slices.Contains(exclude, key) {
				ms = append(ms, member{key, val})
			}
			return true
		})
		slices.SortFunc(ms, func(a, b member) int { return compareUTF16(a.key, b.key) })
		out = append(out, '{')
		for i, m := range ms {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendString(out, m.key)
			out = append(out, ':')
			out = appendCanonical(out, m.val, nil)
		}
		return append(out, '}')
	case v.IsArray():
		out = append(out, '[')
		first := true
		v.Elems(func(e wire.Lenient) bool {
			if !first {
				out = append(out, ',')
			}
			first = false
			out = appendCanonical(out, e, nil)
			return true
		})
		return append(out, ']')
	case v.IsString():
		return appendString(out, string(v.Text(nil)))
	default: // numbers exactly as written; true, false, null
		return append(out, v.Raw()...)
	}
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
