// Package gocomment makes text safe inside a // comment of generated Go:
// the generator's type and field docs and the fixed files rendered from
// templates clean their text with the same function.
package gocomment

import (
	"strings"
	"unicode/utf8"
)

// Line returns s with every character that could end a // comment, or
// hide text from a reader, replaced by a space: control characters (a tab
// too), DEL, NEL, the Unicode line and paragraph separators and the
// byte-order mark. Invalid UTF-8 becomes a space as well.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r < 0x20, r == 0x7f, r == 0x85, r == '\u2028', r == '\u2029', r == '\uFEFF', r == utf8.RuneError:
			return ' '
		}
		return r
	}, s)
}
