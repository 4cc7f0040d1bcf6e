package validate

import "testing"

// The class-run shortcut answers as the compiled expression does.
func TestPatternMatcherAgrees(t *testing.T) {
	patterns := []string{`^[A-Z]{3}$`, `^[a-z0-9_]+$`, `^[a-zA-Z0-9_-]+$`, `^[^\s]*$`, `^\d{2,4}$`, `^[^\u0000-\u001F\u007F]+$`, `^.{1,3}$`, `^[A-Z]{3}`}
	inputs := []string{"", "USD", "usd", "US", "USDX", "a_b", "a-b", "é", "ab c", "12", "12345", "\u2028", "a\nb", "😀😀", "x\u007F"}
	shortcuts := 0
	for _, p := range patterns {
		re, err := compileECMA(p)
		if err != nil {
			t.Fatal(err)
		}
		pm := newPatternMatcher(re)
		if pm.run != nil {
			shortcuts++
		}
		for _, s := range inputs {
			got, _ := pm.MatchString(s)
			want, _ := re.MatchString(s)
			if got != want {
				t.Errorf("%s on %q: shortcut %v, expression %v", p, s, got, want)
			}
		}
	}
	if shortcuts < 5 {
		t.Errorf("only %d patterns took the shortcut", shortcuts)
	}
}
