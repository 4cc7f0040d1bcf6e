package wire

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// appendQuotedByByte is appendQuoted a byte at a time, as it was written
// before it went a word at a time: the word-at-a-time one must write the
// same.
func appendQuotedByByte(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func TestAppendQuoted(t *testing.T) {
	for _, s := range []string{"", "plain", "a \"quoted\" \\ string", "controls \x00\x01\b\f\n\r\t\x1f", "<html>&",
		"é 日本 🎉 \u2028", "bad \xff utf-8 \xe2\x80", strings.Repeat("abcdefg\"", 999), strings.Repeat("\x01", 3000)} {
		checkQuoted(t, s)
	}
}

func checkQuoted(t *testing.T, s string) {
	t.Helper()
	for _, prefix := range []string{"", "x", strings.Repeat("y", 100)} {
		if got, want := appendQuoted([]byte(prefix), s), appendQuotedByByte([]byte(prefix), s); string(got) != string(want) {
			t.Fatalf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
		tight := make([]byte, len(prefix)) // no spare capacity
		copy(tight, prefix)
		if got, want := appendQuoted(tight, s), appendQuotedByByte([]byte(prefix), s); string(got) != string(want) {
			t.Fatalf("appendQuoted(%q) on a full buffer = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendQuoted(f *testing.F) {
	f.Add("a \"b\" \\ \x00 é \xff")
	f.Fuzz(func(t *testing.T, s string) { checkQuoted(t, s) })
}
