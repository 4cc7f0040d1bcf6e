package wire

import "strings"

// UnescapePointerToken decodes one RFC 6901 reference token ("~1" is "/",
// then "~0" is "~"): the inverse of PointerToken, without its "/".
func UnescapePointerToken(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// SplitPointer returns the reference tokens of an RFC 6901 JSON pointer,
// unescaped: "/a~1b/0" is ["a/b" "0"]; "" (the whole document) has none.
func SplitPointer(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range toks {
		toks[i] = UnescapePointerToken(t)
	}
	return toks
}
