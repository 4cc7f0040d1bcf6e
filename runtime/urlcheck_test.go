package runtime_test

import (
	"errors"
	"testing"

	"github.com/adcpgen/adcpgen/runtime"
)

func TestCheckSellerURL(t *testing.T) {
	const domain = "seller.example.com"
	for _, c := range []struct {
		url  string
		want error
	}{
		{"https://seller.example.com/setup/acct_123", nil},
		{"HTTPS://Seller.Example.COM/setup?x=1#frag", nil},
		{"https://seller.example.com:443/p", nil},
		{"https://seller.example.com", nil},
		{"http://seller.example.com/setup", runtime.ErrURLScheme},
		{"javascript:alert(1)", runtime.ErrURLScheme},
		{"data:text/html,<script>alert(1)</script>", runtime.ErrURLScheme},
		{"file:///etc/passwd", runtime.ErrURLScheme},
		{"ftp://seller.example.com/", runtime.ErrURLScheme},
		{"//seller.example.com/setup", runtime.ErrURLScheme},
		{"/setup", runtime.ErrURLScheme},
		{"https:seller.example.com/setup", runtime.ErrURLOpaque},
		{"https:/seller.example.com/setup", runtime.ErrURLOpaque},
		{"https://user:pass@seller.example.com/", runtime.ErrURLUserinfo},
		{"https://@seller.example.com/", runtime.ErrURLUserinfo},
		{"https://seller.example.com@evil.example/", runtime.ErrURLUserinfo},
		{"https://evil.example/seller.example.com", runtime.ErrURLHost},
		{"https://sub.seller.example.com/", runtime.ErrURLHost},
		{"https://seller.example.com.evil.example/", runtime.ErrURLHost},
		{"https://seller.example.com./", runtime.ErrURLHost},
		{"https://xseller.example.com/", runtime.ErrURLHost},
		{"https:///path", runtime.ErrURLHost},
		{"https://seller.example.com:8443/", runtime.ErrURLPort},
		{"https://seller.example.com:/", runtime.ErrURLPort},
		{"", runtime.ErrURLMalformed},
		{" https://seller.example.com/", runtime.ErrURLMalformed},
		{"https://seller.example.com\\@evil.example/", runtime.ErrURLMalformed},
		{"https://seller.example.com/\x00", runtime.ErrURLMalformed},
		{"https://[::1]/", runtime.ErrURLHost},
	} {
		_, err := runtime.CheckSellerURL(c.url, domain)
		if c.want == nil {
			if err != nil {
				t.Errorf("%q: %v", c.url, err)
			}
			continue
		}
		var ue *runtime.URLError
		if !errors.Is(err, c.want) || !errors.As(err, &ue) {
			t.Errorf("%q: %v, want %v", c.url, err, c.want)
		}
	}
	// Ports and bad domains.
	if _, err := runtime.CheckSellerURL("https://seller.example.com:8443/x", "seller.example.com:8443"); err != nil {
		t.Errorf("explicit port: %v", err)
	}
	if _, err := runtime.CheckSellerURL("https://seller.example.com/x", ""); !errors.Is(err, runtime.ErrNoDomain) {
		t.Errorf("empty domain: %v", err)
	}
	if _, err := runtime.CheckSellerURL("https://seller.example.com/x", "https://seller.example.com"); err == nil {
		t.Error("a URL accepted as the seller domain")
	}
}

func TestCheckErrorURLs(t *testing.T) {
	r := runtime.ExtractMCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"CREATIVE_REJECTED",
		"details":{"setup_url":"https://seller.example.com/setup","policy_url":"http://evil.example/p"}}}}`))
	errs := runtime.CheckErrorURLs(r.Error, "seller.example.com")
	if len(errs) != 1 || !errors.Is(errs[0], runtime.ErrURLScheme) {
		t.Errorf("errs = %v", errs)
	}
	r = runtime.ExtractMCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"ACCOUNT_SETUP_REQUIRED","details":{"setup_url":42}}}}`))
	if errs := runtime.CheckErrorURLs(r.Error, "seller.example.com"); len(errs) != 1 || !errors.Is(errs[0], runtime.ErrURLMalformed) {
		t.Errorf("non-string URL: %v", errs)
	}
	if errs := runtime.CheckErrorURLs(&runtime.Error{Code: "X"}, "seller.example.com"); errs != nil {
		t.Errorf("no details: %v", errs)
	}
}

func TestA2AFileURIs(t *testing.T) {
	uris, err := runtime.A2AFileURIs([]byte(`{"task":{"status":{"state":"completed","message":{"parts":[{"url":"https://a.example/1"}]}},
		"artifacts":[{"parts":[{"kind":"file","file":{"uri":"javascript:alert(1)","mimeType":"text/html"}},{"text":"x"}]}]}}`))
	if err != nil || len(uris) != 2 || uris[0] != "javascript:alert(1)" || uris[1] != "https://a.example/1" {
		t.Fatalf("uris = %q, %v", uris, err)
	}
	if _, err := runtime.A2AFileURIs([]byte(`{`)); !errors.Is(err, runtime.ErrInvalidJSON) {
		t.Errorf("invalid JSON: %v", err)
	}
}
