package sellerstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
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
// Each entry of exclude names an object member left out, wherever it is
// (RFC 6901): "/push_notification_config/authentication/credentials" drops
// that nested member and keeps the rest of push_notification_config; a
// bare name ("idempotency_key") is the top-level member of that name.
// Pointers name object members only: arrays are written whole. A seller
// excludes "/idempotency_key" (the record's key, not part of the request)
// and what a buyer may change between retries of one request ("/context",
// echoed back and never acted on; a refreshed credential).
//
// Input without a single meaning is rejected with ErrInvalid, wrapping the
// *wire.DecodeError that says where: anything runtime/wire's strict reader
// refuses (malformed JSON, data after the value, invalid UTF-8, an escaped
// lone surrogate, a duplicate key compared after unescaping, a "__proto__",
// "constructor" or "prototype" key, nesting deeper than 512). An exclusion
// that is neither a bare name nor a JSON pointer ("" or "/a/~2") is
// rejected with ErrInvalid too.
func Canonical(data []byte, exclude ...string) ([]byte, error) {
	drop, err := exclusionTree(exclude)
	if err != nil {
		return nil, err
	}
	if err := wire.Valid(data); err != nil {
		return nil, fmt.Errorf("sellerstore: canonical JSON: %w: %w", err, ErrInvalid)
	}
	v, err := wire.ParseLenient(data)
	if err != nil { // unreachable: strict JSON is lenient JSON
		return nil, fmt.Errorf("sellerstore: canonical JSON: %w: %w", err, ErrInvalid)
	}
	return appendCanonical(nil, v, drop), nil
}

// exclusion is a tree of the members Canonical leaves out: a member whose
// node is drop goes; one with children is written without theirs.
type exclusion struct {
	drop     bool
	children map[string]*exclusion
}

// exclusionTree parses exclude (JSON pointers, or bare top-level names)
// into a tree; nil when there is nothing to exclude.
func exclusionTree(exclude []string) (*exclusion, error) {
	if len(exclude) == 0 {
		return nil, nil
	}
	root := &exclusion{}
	for _, p := range exclude {
		tokens := []string{p}
		if strings.HasPrefix(p, "/") {
			tokens = strings.Split(p[1:], "/")
		} else if p == "" {
			return nil, fmt.Errorf("sellerstore: canonical JSON: an empty exclusion (want a member name or a JSON pointer): %w", ErrInvalid)
		}
		n := root
		for _, tok := range tokens {
			name, err := unescapeToken(tok)
			if err != nil {
				return nil, fmt.Errorf("sellerstore: canonical JSON: exclusion %q: %w: %w", p, err, ErrInvalid)
			}
			if n.children == nil {
				n.children = map[string]*exclusion{}
			}
			next := n.children[name]
			if next == nil {
				next = &exclusion{}
				n.children[name] = next
			}
			n = next
		}
		n.drop = true
	}
	return root, nil
}

// unescapeToken decodes a JSON pointer reference token (~1 is "/", ~0 is
// "~").
func unescapeToken(tok string) (string, error) {
	if !strings.Contains(tok, "~") {
		return tok, nil
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			b.WriteByte(tok[i])
			continue
		}
		if i+1 == len(tok) || (tok[i+1] != '0' && tok[i+1] != '1') {
			return "", errors.New("'~' not followed by 0 or 1")
		}
		if tok[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), nil
}

// Fingerprint hashes canonical bytes: "sha256:" and 64 hex digits.
func Fingerprint(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// member is one object member: its unescaped key, its value, and what to
// leave out of the value.
type member struct {
	key  string
	val  wire.Lenient
	drop *exclusion
}

// appendCanonical writes v, which wire.Valid accepted, in canonical form,
// without the members drop names (nil: none).
func appendCanonical(out []byte, v wire.Lenient, drop *exclusion) []byte {
	switch {
	case v.IsObject():
		var ms []member
		v.Members(func(k, val wire.Lenient) bool {
			key := string(k.Text(nil))
			var child *exclusion
			if drop != nil {
				child = drop.children[key]
			}
			if child == nil || !child.drop {
				ms = append(ms, member{key, val, child})
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
			out = appendCanonical(out, m.val, m.drop)
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
