package validate

import (
	"errors"
	"strings"
	"testing"
)

// ecmaCases hold patterns with strings that must and must not match, as
// JavaScript's RegExp(pattern, "u").test(s) answers.
var ecmaCases = []struct {
	pattern string
	match   []string
	noMatch []string
}{
	// The corpus's non-RE2 patterns.
	{`^P(?!$)(\d+Y)?(\d+M)?(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$`, []string{"P1D", "PT30M", "P1Y2M3DT4H5M6S", "PT0S", "PT"}, []string{"P", "", "1D", "P1H", "P1DX"}},
	{`^[^\u0000-\u001F\u007F]+$`, []string{"WCAG 1.1.1", "é", "a\u0080"}, []string{"", "a\nb", "tab\there", "del\u007f"}},
	{`^[^\u0000-\u001F\u007F]*$`, []string{"", "fine"}, []string{"\x00", "x\x1f"}},
	{`^(?:/(?:[^~/\u0000-\u001F\u007F]|~0|~1)*)*$`, []string{"", "/a/b", "/a~0b/~1", "/"}, []string{"a", "/~2", "/a\nb", "/~"}},
	// ECMA meanings that differ from RE2's.
	{`^\S+$`, []string{"abc"}, []string{"a b", "a\u00a0b", "a\u2003b", "\ufeff"}},
	{`^[^\s]*$`, []string{"abc"}, []string{"a\u3000b", "a\vb"}},
	{`^a.b$`, []string{"axb", "a\u00e9b"}, []string{"a\nb", "a\rb", "a\u2028b", "ab"}},
	{`^[\s\S]$`, []string{"\n", "x"}, []string{"", "xy"}},
	{`^[^]$`, []string{"\n", "x"}, []string{""}},
	{`^[]$`, nil, []string{"", "x"}},
	{`^\x41\u0042\u{43}$`, []string{"ABC"}, []string{"abc"}},
	{`^\uD83D\uDE00$`, []string{"😀"}, []string{"\uFFFD"}},
	{`^a{2}b{1,}c{0,1}$`, []string{"aab", "aabbc"}, []string{"ab", "aabcc"}},
	{`^x{$`, []string{"x{"}, []string{"x"}},
	{`^\-\/]$`, []string{"-/]"}, nil},
	{`^[a\-z]+$`, []string{"a-z"}, []string{"b"}},
	{`^[\w-]+$`, []string{"a-b_c"}, []string{"a b"}},
	{`^\cJ$`, []string{"\n"}, []string{"J"}},
	{`\bfoo\b`, []string{"a foo b", "foo", "éfooé"}, []string{"foobar", "_foo"}},
	{`^(a|ab)(c|bcd)(d*)$`, []string{"abcd", "abcdd", "abc"}, []string{"ab", "abcdx"}},
	{`^a*?b$`, []string{"aab", "b"}, []string{"aa"}},
	{`end$`, []string{"the end"}, []string{"end\n"}},
	{`^start`, []string{"start x"}, []string{"\nstart"}},
	// Lookarounds and back-references (backtracking only).
	{`^(?=.*\d)(?=.*[a-z]).{6,}$`, []string{"abc123"}, []string{"abcdef", "123456", "a1"}},
	{`^(?!foo)\w+$`, []string{"bar", "fo"}, []string{"foo", "foobar"}},
	{`(?<=\$)\d+`, []string{"cost $42"}, []string{"cost 42"}},
	{`(?<!\$)\b\d+`, []string{"cost 42"}, []string{"$42"}},
	{`^(\w)\1$`, []string{"aa", "33"}, []string{"ab"}},
	{`^(?:(a)|b)\1$`, []string{"aa", "b"}, []string{"ab"}},
	{`^(a*)*b$`, []string{"aaab", "b"}, []string{"aaa"}},
}

func TestECMAPatterns(t *testing.T) {
	for _, tc := range ecmaCases {
		re, err := compileECMA(tc.pattern)
		if err != nil {
			t.Errorf("compile %q: %v", tc.pattern, err)
			continue
		}
		ast, _ := parseECMA(tc.pattern)
		check := func(s string, want bool) {
			got, err := re.MatchString(s)
			if err != nil || got != want {
				t.Errorf("%q.test(%q) = %v, %v; want %v", tc.pattern, s, got, err, want)
			}
			// The backtracking matcher is the reference for the RE2 translation.
			if bt, err := backtrackSearch(ast, s); err != nil || bt != want {
				t.Errorf("backtracking %q.test(%q) = %v, %v; want %v", tc.pattern, s, bt, err, want)
			}
		}
		for _, s := range tc.match {
			check(s, true)
		}
		for _, s := range tc.noMatch {
			check(s, false)
		}
	}
}

func TestECMARoutesOnlyWhatRE2Lacks(t *testing.T) {
	for pattern, wantBT := range map[string]bool{
		`^[a-z]+$`:            false,
		`^[^\u0000-\u001F]+$`: false,
		`^P(?!$)\d+D$`:        true,
		`^(\w)\1$`:            true,
		`^a{2000}$`:           true,
		`(?<=x)y`:             true,
	} {
		re, err := compileECMA(pattern)
		if err != nil {
			t.Fatalf("%q: %v", pattern, err)
		}
		if re.usesBacktracking() != wantBT {
			t.Errorf("%q: backtracking = %v, want %v", pattern, re.usesBacktracking(), wantBT)
		}
	}
}

func TestECMABadPatterns(t *testing.T) {
	for _, pattern := range []string{`(`, `a)`, `[a`, `*a`, `a**`, `\`, `[z-a]`, `a{3,1}`, `(?i)a`, `(?<n`, `^*`, `(\w)\2`} {
		if _, err := compileECMA(pattern); err == nil {
			t.Errorf("compile %q: want an error", pattern)
		} else if !strings.Contains(err.Error(), "pattern") {
			t.Errorf("compile %q: error %q does not name the pattern", pattern, err)
		}
	}
}

func TestECMABudget(t *testing.T) {
	re, err := compileECMA(`^(?=(a+)+b)`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = re.MatchString(strings.Repeat("a", 40))
	if !errors.Is(err, errMatchBudget) {
		t.Fatalf("catastrophic pattern: err = %v, want errMatchBudget", err)
	}
	if _, err := re.MatchString(strings.Repeat("a", btMaxInput+1)); !errors.Is(err, errMatchBudget) {
		t.Fatalf("oversized input: err = %v, want errMatchBudget", err)
	}
}

func TestRE2Key(t *testing.T) {
	for in, want := range map[string]string{
		`^[a-z0-9_]+$`:       `^[a-z0-9_]+$`,
		`^https?://[^@]+@x$`: `^https?://[^@]+@x$`,
		`^a.b$`:              `\Aa[^\x{A}\x{D}\x{2028}-\x{2029}]b\z`,
		`^\u0041$`:           `\AA\z`,
	} {
		got, err := re2Key(in)
		if err != nil || got != want {
			t.Errorf("re2Key(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := re2Key(`^(?!x)`); err == nil {
		t.Error("re2Key with a lookahead: want an error")
	}
}
