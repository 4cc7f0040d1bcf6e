package seller

import "testing"

func TestJSONPathLite(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "/packages/0/targeting": "packages[0].targeting", "/a~1b/01/~0": "a/b.01.~", "/0": "[0]",
	} {
		if got := jsonPathLite(in); got != want {
			t.Errorf("jsonPathLite(%q) = %q, want %q", in, got, want)
		}
	}
}
