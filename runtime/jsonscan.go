package runtime

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is a small JSON reader with the semantics of JavaScript's
// JSON.parse, which the AdCP extraction algorithms are written against:
// duplicate keys are kept in the bytes and the last one wins on lookup, and
// "__proto__" is an ordinary key. It never copies a value: extraction hands
// back the sender's bytes untouched, and the strict typed decoders judge them.

// maxJSONDepth bounds nesting so hostile input cannot exhaust the stack.
const maxJSONDepth = 10000

// SyntaxError is malformed JSON at a byte offset of the input it was found in.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "invalid JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// parseDocument checks that b holds exactly one JSON value (with optional
// surrounding whitespace) and returns that value without the whitespace.
func parseDocument(b []byte) (jval, error) {
	i := skipSpace(b, 0)
	start := i
	end, err := scanValue(b, i, 0)
	if err != nil {
		return nil, err
	}
	if j := skipSpace(b, end); j != len(b) {
		return nil, &SyntaxError{j, "unexpected " + describe(b[j]) + " after the top-level value"}
	}
	return jval(b[start:end:end]), nil
}

func describe(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

// scanValue checks the value starting at b[i] and returns the offset just
// past it.
func scanValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return i, &SyntaxError{i, "want a value, got end of input"}
	}
	switch c := b[i]; {
	case c == '{':
		return scanObject(b, i, depth+1)
	case c == '[':
		return scanArray(b, i, depth+1)
	case c == '"':
		end, _, err := scanString(b, i)
		return end, err
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(b, i)
	default:
		return i, &SyntaxError{i, "want a value, got " + describe(c)}
	}
}

func scanLiteral(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, &SyntaxError{i, "invalid literal, want " + lit}
	}
	return i + len(lit), nil
}

func scanObject(b []byte, i, depth int) (int, error) {
	if depth > maxJSONDepth {
		return i, &SyntaxError{i, "nesting deeper than " + strconv.Itoa(maxJSONDepth) + " levels"}
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, &SyntaxError{i, "want a string key"}
		}
		end, _, err := scanString(b, i)
		if err != nil {
			return end, err
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return i, &SyntaxError{i, "want ':' after an object key"}
		}
		i = skipSpace(b, i+1)
		if i, err = scanValue(b, i, depth); err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return i, &SyntaxError{i, "unterminated object"}
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i + 1, nil
		default:
			return i, &SyntaxError{i, "want ',' or '}' in an object, got " + describe(b[i])}
		}
	}
}

func scanArray(b []byte, i, depth int) (int, error) {
	if depth > maxJSONDepth {
		return i, &SyntaxError{i, "nesting deeper than " + strconv.Itoa(maxJSONDepth) + " levels"}
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = scanValue(b, i, depth); err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return i, &SyntaxError{i, "unterminated array"}
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return i + 1, nil
		default:
			return i, &SyntaxError{i, "want ',' or ']' in an array, got " + describe(b[i])}
		}
	}
}

// scanString checks the string starting at b[i] (the opening quote) and
// reports whether it holds escapes. Like JSON.parse it accepts any bytes
// other than control characters; it does not judge UTF-8.
func scanString(b []byte, i int) (end int, escaped bool, err error) {
	start := i
	i++
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return i, escaped, &SyntaxError{i, "unterminated escape"}
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 || !isHex4(b[i+2:i+6]) {
					return i, escaped, &SyntaxError{i, `invalid \u escape`}
				}
				i += 6
			default:
				return i, escaped, &SyntaxError{i, "invalid escape " + describe(b[i+1])}
			}
		case c < 0x20:
			return i, escaped, &SyntaxError{i, "control character " + describe(c) + " in a string"}
		default:
			i++
		}
	}
	return start, escaped, &SyntaxError{start, "unterminated string"}
}

func isHex4(h []byte) bool {
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func scanNumber(b []byte, i int) (int, error) {
	start := i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return i, &SyntaxError{start, "invalid number"}
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, &SyntaxError{start, "invalid number: want a digit after '.'"}
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, &SyntaxError{start, "invalid number: want a digit in the exponent"}
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	return i, nil
}

// decodeString appends the unescaped contents of the quoted JSON string raw
// to dst. Lone surrogate escapes become U+FFFD, as in Go's encoding/json.
func decodeString(dst, raw []byte) []byte {
	if len(raw) < 2 {
		return dst
	}
	s := raw[1 : len(raw)-1]
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
			r, n := unicodeEscape(s[i:])
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

// unicodeEscape decodes the \uXXXX escape (or surrogate pair) at the start of
// s and returns the rune and the bytes consumed.
func unicodeEscape(s []byte) (rune, int) {
	if len(s) < 6 || !isHex4(s[2:6]) {
		return utf8.RuneError, min(len(s), 2)
	}
	r := hex4(s[2:6])
	if utf16.IsSurrogate(r) {
		if r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' && isHex4(s[8:12]) {
			if pair := utf16.DecodeRune(r, hex4(s[8:12])); pair != utf8.RuneError {
				return pair, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

func hex4(h []byte) rune {
	var r rune
	for _, c := range h[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// decodedLen is the byte length decodeString would produce, computed
// without decoding, so oversized strings are skipped before any copy.
func decodedLen(raw []byte) int {
	if len(raw) < 2 {
		return 0
	}
	s := raw[1 : len(raw)-1]
	n := 0
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			n++
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == 'u' {
			r, k := unicodeEscape(s[i:])
			n += utf8.RuneLen(r)
			i += k
			continue
		}
		n++
		i += 2
	}
	return n
}

// compactLen is the length in bytes of the value's compact JSON text: its
// bytes without insignificant whitespace.
func compactLen(v []byte) int {
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

// appendCompact appends v without insignificant whitespace.
func appendCompact(dst, v []byte) []byte {
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
