package signing

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// sanitizeKeyPointer makes the duplicate key of a body_malformed rejection
// safe to log (security.mdx step 14b): only the last pointer token, the
// key itself, passed through sanitizeKeyName.
func sanitizeKeyPointer(ptr string) string {
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		ptr = ptr[i+1:]
	}
	ptr = strings.ReplaceAll(strings.ReplaceAll(ptr, "~1", "/"), "~0", "~")
	return strconv.Quote(sanitizeKeyName(ptr))
}

// sanitizeKeyName applies step 14b's rules to a key name an attacker
// chose: (a) at the first non-printable code point the name is replaced by
// <sanitized:N>, N being the byte length of what came before it; (b) it is
// cut to at most 32 bytes on a code point boundary.
func sanitizeKeyName(s string) string {
	for i, r := range s {
		if r == utf8.RuneError || nonPrintable(r) {
			return "<sanitized:" + strconv.Itoa(i) + ">"
		}
	}
	if len(s) <= 32 {
		return s
	}
	cut := 32
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// nonPrintable is the set step 14b(a) names at minimum: C0, DEL, C1, the
// bidi controls and isolates, the line and paragraph separators, the
// zero-width characters and the byte-order mark.
func nonPrintable(r rune) bool {
	switch {
	case r <= 0x1f, r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == 0xfeff:
		return true
	}
	return false
}
