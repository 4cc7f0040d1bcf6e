package jsonscan

import (
	"strings"
	"testing"
)

// Each finder agrees with a byte-at-a-time loop, wherever the byte sits in
// an eight-byte word, whatever comes before and after it.
func TestFindersAgreeWithLoops(t *testing.T) {
	stringEnd := func(c byte) bool { return c == '"' || c == '\\' }
	plain := func(html bool) func(c byte) bool {
		return func(c byte) bool {
			return c < 0x20 || c == '"' || c == '\\' || c >= 0x80 || (html && (c == '<' || c == '>' || c == '&'))
		}
	}
	htmlEnd := func(c byte) bool { return strings.IndexByte("\"\\<>&\xe2", c) >= 0 }
	first := func(s []byte, i int, stop func(byte) bool) int {
		for ; i < len(s); i++ {
			if stop(s[i]) {
				return i
			}
		}
		return len(s)
	}
	for n := range 20 {
		for pos := range n + 1 {
			for c := range 256 {
				s := []byte(strings.Repeat("a", n))
				if pos < n {
					s[pos] = byte(c)
				}
				for start := range min(n, 3) + 1 {
					if got, want := StringEnd(s, start), first(s, start, stringEnd); got != want {
						t.Fatalf("StringEnd(%q, %d) = %d, want %d", s, start, got, want)
					}
					if got, want := Plain(string(s), start, true), first(s, start, plain(true)); got != want {
						t.Fatalf("Plain(string %q, %d, true) = %d, want %d", s, start, got, want)
					}
					for _, html := range []bool{false, true} {
						if got, want := Plain(s, start, html), first(s, start, plain(html)); got != want {
							t.Fatalf("Plain(%q, %d, %v) = %d, want %d", s, start, html, got, want)
						}
					}
					if got, want := HTMLEnd(s, start), first(s, start, htmlEnd); got != want {
						t.Fatalf("HTMLEnd(%q, %d) = %d, want %d", s, start, got, want)
					}
				}
			}
		}
	}
}

func FuzzFinders(f *testing.F) {
	f.Add([]byte(`plain text "quoted" \ and <html> & é`), 0)
	f.Fuzz(func(t *testing.T, s []byte, start int) {
		if start < 0 || start > len(s) {
			return
		}
		for i := start; i <= len(s); i++ {
			if i == len(s) || s[i] == '"' || s[i] == '\\' {
				if got := StringEnd(s, start); got != i {
					t.Fatalf("StringEnd(%q, %d) = %d, want %d", s, start, got, i)
				}
				break
			}
		}
		for _, html := range []bool{false, true} {
			for i := start; i <= len(s); i++ {
				if i == len(s) || s[i] < 0x20 || s[i] == '"' || s[i] == '\\' || s[i] >= 0x80 || (html && (s[i] == '<' || s[i] == '>' || s[i] == '&')) {
					if got := Plain(s, start, html); got != i {
						t.Fatalf("Plain(%q, %d, %v) = %d, want %d", s, start, html, got, i)
					}
					break
				}
			}
		}
		for i := start; i <= len(s); i++ {
			if i == len(s) || strings.IndexByte("\"\\<>&\xe2", s[i]) >= 0 {
				if got := HTMLEnd(s, start); got != i {
					t.Fatalf("HTMLEnd(%q, %d) = %d, want %d", s, start, got, i)
				}
				break
			}
		}
	})
}

// A byte to handle before the start, in the last word read, neither counts
// nor makes the bytes after it look like ones to handle (a borrow).
func TestPlainAfterAHandledByte(t *testing.T) {
	for n := 8; n < 24; n++ {
		for at := range n - 1 {
			for _, c := range []byte{0x00, 0x1f, '"', '\\', 0x80, 0xff, '<'} {
				s := []byte(strings.Repeat(" ", n))
				s[at] = c
				for _, html := range []bool{false, true} {
					if got := Plain(s, at+1, html); got != n {
						t.Fatalf("Plain(%q, %d, %v) = %d, want %d", s, at+1, html, got, n)
					}
				}
			}
		}
	}
}
