package gocomment

import "testing"

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                "plain text",
		"a\tb":                      "a b",
		"end */ /* not a block":     "end */ /* not a block",
		"line\nbreak\rcarriage":     "line break carriage",
		"nel\u0085ls\u2028ps\u2029": "nel ls ps ",
		"bom\uFEFFdel\x7f":          "bom del ",
		"bad \xff utf-8":            "bad   utf-8",
		"naïve — ünïcode":           "naïve — ünïcode",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}
