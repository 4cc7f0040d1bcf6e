package untrusted

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Limits for seller strings placed in LLM context.
const (
	MaxMessageBytes    = 256
	MaxSuggestionBytes = 512
)

// stripped reports whether the sanitiser removes r. The specification asks
// for control characters (U+0000–U+001F), zero-width characters
// (U+200B–U+200F) and bidirectional overrides (U+202A–U+202E). We also
// remove, because they hide or reorder text the same way: DEL and the C1
// controls (U+007F–U+009F), the Arabic letter mark (U+061C), the invisible
// operators and word joiner (U+2060–U+2064), the bidirectional isolates
// (U+2066–U+2069) and the byte order mark / zero-width no-break space
// (U+FEFF). Invalid UTF-8 bytes are removed too.
func stripped(r rune) bool {
	switch {
	case r <= 0x1F, r >= 0x7F && r <= 0x9F:
		return true
	case r == 0x061C:
		return true
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E:
		return true
	case r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0xFEFF:
		return true
	}
	return false
}

// Sanitize removes the characters a seller could use to hide or reorder
// text (see the list at the top of this file's stripped function).
func Sanitize(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if stripped(r) || (r == utf8.RuneError && n == 1) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !stripped(r) && !(r == utf8.RuneError && n == 1) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// SanitizeTruncate sanitises s, then cuts it to at most maxBytes bytes on a
// UTF-8 boundary. Truncation is silent, as the specification asks.
func SanitizeTruncate(s string, maxBytes int) string {
	return truncateUTF8(Sanitize(s), maxBytes)
}

func truncateUTF8(s string, maxBytes int) string {
	if maxBytes < 0 {
		maxBytes = 0
	}
	if len(s) <= maxBytes {
		return s
	}
	cut := maxBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// SanitizeJSON returns raw with every string in it, keys and nested values
// included, sanitised. Structure, numbers and key order are kept; the
// result is compact. Invalid JSON is an error.
func SanitizeJSON(raw []byte) (json.RawMessage, error) {
	v, err := wire.ParseLenient(raw)
	if err != nil {
		return nil, err
	}
	return appendSanitized(make([]byte, 0, len(v)), v), nil
}

func appendSanitized(dst []byte, v wire.Lenient) []byte {
	switch {
	case v.IsObject():
		dst = append(dst, '{')
		first := true
		v.Members(func(k, val wire.Lenient) bool {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendSanitized(dst, k)
			dst = append(dst, ':')
			dst = appendSanitized(dst, val)
			return true
		})
		return append(dst, '}')
	case v.IsArray():
		dst = append(dst, '[')
		first := true
		v.Elems(func(e wire.Lenient) bool {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendSanitized(dst, e)
			return true
		})
		return append(dst, ']')
	case v.IsString():
		s, _ := v.AsString()
		return AppendQuotedHTMLSafe(dst, Sanitize(s))
	default:
		return append(dst, v...)
	}
}

// AppendQuotedHTMLSafe appends s quoted as a JSON string, with <, > and & escaped
// so seller text can never close the data delimiter it is wrapped in.
func AppendQuotedHTMLSafe(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(s) // a string always encodes
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
