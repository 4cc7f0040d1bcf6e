package untrusted

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"plain", "a\u202eb\u200bc\x00d", "\xff\xfe", "é😀", strings.Repeat("é", 300), `{"k\u200b":["x"]}`} {
		f.Add(s, 256)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		out := Sanitize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out: %q", out)
		}
		for _, r := range out {
			if stripped(r) {
				t.Fatalf("%U survived in %q", r, out)
			}
		}
		if Sanitize(out) != out {
			t.Fatal("not idempotent")
		}
		n %= 1024
		tr := SanitizeTruncate(s, n)
		if len(tr) > max(n, 0) || !utf8.ValidString(tr) || !strings.HasPrefix(out, tr) {
			t.Fatalf("SanitizeTruncate(%q, %d) = %q", s, n, tr)
		}
		if js, err := SanitizeJSON([]byte(s)); err == nil && !json.Valid(js) {
			t.Fatalf("SanitizeJSON produced invalid JSON %q", js)
		}
	})
}

func FuzzCheckSellerURL(f *testing.F) {
	for _, s := range []string{"https://seller.example.com/x", "https://u@seller.example.com", "javascript:x", "https:x", "https://SELLER.example.com:443/"} {
		f.Add(s, "seller.example.com")
	}
	f.Fuzz(func(t *testing.T, raw, domain string) {
		u, err := CheckSellerURL(raw, domain)
		if err != nil {
			return
		}
		host, _, _ := splitDomain(domain)
		if u.Scheme != "https" || u.User != nil || u.Opaque != "" || !strings.EqualFold(u.Hostname(), host) {
			t.Fatalf("accepted %q for %q: %#v", raw, domain, u)
		}
	})
}
