package wire

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitPointer(t *testing.T) {
	for _, tc := range []struct {
		ptr  string
		want []string
	}{
		{"", nil},
		{"/", []string{""}},
		{"/a/0", []string{"a", "0"}},
		{"/a~1b/c~0d", []string{"a/b", "c~d"}},
		{"/~01", []string{"~1"}}, // "~01" is "~1", not "/"
		{"/patternProperties/^https?:~1~1", []string{"patternProperties", "^https?://"}},
	} {
		got := SplitPointer(tc.ptr)
		if !slices.Equal(got, tc.want) {
			t.Errorf("SplitPointer(%q) = %q, want %q", tc.ptr, got, tc.want)
		}
		// PointerToken is the inverse.
		var b strings.Builder
		for _, tok := range got {
			b.WriteString(PointerToken(tok))
		}
		if b.String() != tc.ptr {
			t.Errorf("joined again: %q, want %q", b.String(), tc.ptr)
		}
	}
}
