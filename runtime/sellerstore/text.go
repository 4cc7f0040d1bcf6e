package sellerstore

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// checkText rejects what a SQL text column cannot hold, so every store
// accepts the same strings: invalid UTF-8 and NUL. An empty s is rejected
// when required.
func checkText(what, s string, required bool) error {
	switch {
	case s == "" && required:
		return fmt.Errorf("sellerstore: empty %s: %w", what, ErrInvalid)
	case !utf8.ValidString(s):
		return fmt.Errorf("sellerstore: %s %q is not valid UTF-8: %w", what, s, ErrInvalid)
	case strings.IndexByte(s, 0) >= 0:
		return fmt.Errorf("sellerstore: %s %q contains NUL: %w", what, s, ErrInvalid)
	}
	return nil
}
