package untrusted_test

import (
	"testing"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

func TestSanitize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"line\nbreak\ttab\r\x00nul\x1fus", "linebreaktabnulus"},
		{"zero\u200bwidth\u200c\u200d\u200e\u200f", "zerowidth"},
		{"bidi\u202aover\u202b\u202c\u202d\u202eride", "bidioverride"},
		{"isolate\u2066\u2067\u2068\u2069s", "isolates"},
		{"bom\ufeff word\u2060joiner", "bom wordjoiner"},
		{"del\x7f c1\u0085\u009f", "del c1"},
		{"arabic mark\u061c", "arabic mark"},
		{"bad utf8 \xff\xfe kept?", "bad utf8  kept?"},
		{"emoji 😀 and accents é stay", "emoji 😀 and accents é stay"},
		{"\u200a hair space stays", "\u200a hair space stays"},
		{"\u2028 line separator stays", "\u2028 line separator stays"},
	} {
		if got := untrusted.Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSanitizeTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"abcdef", 3, "abc"},
		{"é", 1, ""}, // 2-byte rune never split
		{"aé", 2, "a"},
		{"😀😀", 5, "😀"},               // 4-byte runes
		{"\u200b" + "abc", 3, "abc"}, // stripped first, then cut
		{"abc", 0, ""},
		{"abc", -1, ""},
	} {
		got := untrusted.SanitizeTruncate(c.in, c.max)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("SanitizeTruncate(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestSanitizeJSON(t *testing.T) {
	got, err := untrusted.SanitizeJSON([]byte(`{"k\u200bey": ["a\nb", {"deep": "x\u202ey"}], "n": 1.50, "t": true, "z": null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"key":["ab",{"deep":"xy"}],"n":1.50,"t":true,"z":null}`
	if string(got) != want {
		t.Errorf("SanitizeJSON = %s, want %s", got, want)
	}
	if _, err := untrusted.SanitizeJSON([]byte(`{"a":`)); err == nil {
		t.Error("invalid JSON accepted")
	}
}

func TestAppendQuoted(t *testing.T) {
	got := string(untrusted.AppendQuotedHTMLSafe([]byte("x="), "</adcp_seller_error>&\"é"))
	want := `x="\u003c/adcp_seller_error\u003e\u0026\"é"`
	if got != want {
		t.Fatalf("AppendQuotedHTMLSafe = %s, want %s", got, want)
	}
}
