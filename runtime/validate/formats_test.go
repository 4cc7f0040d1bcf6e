package validate

import "testing"

func TestFormatCheckers(t *testing.T) {
	cases := []struct {
		format string
		check  func(string) bool
		good   []string
		bad    []string
	}{
		{"uri", isURI,
			[]string{"https://example.com", "https://example.com:8443/a/b?c=d&e=%20f#g", "mailto:ops@example.com", "urn:isbn:0451450523",
				"https://[2001:db8::1]/x", "https://[2001:db8::1]:8443", "https://[::ffff:192.0.2.1]/", "https://[v1.x]/", "https://[vF.a:b!$]:1/",
				"file:///tmp/x", "https://user@host/", "https://user:pw@host:/", "https://192.0.2.1:80/", "http://ex%41mple.com/"},
			[]string{"", "example.com/path", "/relative", "https://exa mple.com", "https://example.com/a b", "https://example.com/%zz",
				"https://example.com/é", "1http://x", "https://x/#a#b", "https://x/[y]", "https://[2001:db8::1/x", "https://host:port/", "http:\\\\x",
				"https://[v.x]/", "https://[v1.]/", "https://[vg.x]/", "https://[v1x]/", "https://[v1.x/y]/", "https://[192.0.2.1]/",
				"https://[fe80::1%25eth0]/", "https://[::1]x/", "https://a:b:c/", "https://a@b@c/", "https://[2001:db8::1]]/"}},
		{"email", isEmail,
			[]string{"ops@example.com", "first.last+tag@sub.example.co", "a@b.c", "x@[192.0.2.1]"},
			[]string{"", "üser@example.com", "user@bücher.example", "user", "@example.com", "user@", "a b@example.com", "John <j@example.com>", "a@b@example.com"}},
		{"uri-template", isURITemplate,
			[]string{"https://t.example.com/{id}", "https://t.example.com/imp{?cb,id}", "{+base}/x{/path*}{#frag}", "https://x/{var:3}", "no-expressions", "https://x/%20{a.b}"},
			[]string{"https://t.example.com/{id", "https://t.example.com/{}", "https://x/{a b}", "https://x/{var:0}", "https://x/{var:10000}", "https://x/{a..b}", "https://x/}", "https://x/a b", "https://x/%2"}},
		{"hostname", isHostname,
			[]string{"example.com", "a", "xn--bcher-kva.example", "example.com.", "a-b.c1"},
			[]string{"", "-a.com", "a-.com", "a..com", "a_b.com", "exa mple.com", "bücher.example", string(make([]byte, 64)) + ".com", "."}},
	}
	for _, tc := range cases {
		for _, s := range tc.good {
			if !tc.check(s) {
				t.Errorf("%s: %q rejected", tc.format, s)
			}
		}
		for _, s := range tc.bad {
			if tc.check(s) {
				t.Errorf("%s: %q accepted", tc.format, s)
			}
		}
	}
	long := ""
	for len(long) < 254 {
		long += "abcdefghi."
	}
	if isHostname(long) {
		t.Error("hostname over 253 characters accepted")
	}
}

// Formats only constrain strings, and every format the corpus uses has a
// checker (the library's or ours).
func TestFormatRegistry(t *testing.T) {
	f := formats()
	for _, name := range []string{"uri", "uri-template", "hostname", "regex"} {
		if f[name] == nil {
			t.Errorf("no checker for %s", name)
		} else if !f[name](42) {
			t.Errorf("%s rejects a number", name)
		}
	}
	if f["regex"]("^(?!x)") != true || f["regex"]("(") != false {
		t.Error("regex format must accept ECMA-262 lookaheads and reject broken patterns")
	}
}
