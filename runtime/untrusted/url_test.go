package untrusted_test

import (
	"errors"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/untrusted"
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
		{"http://seller.example.com/setup", untrusted.ErrURLScheme},
		{"javascript:alert(1)", untrusted.ErrURLScheme},
		{"data:text/html,<script>alert(1)</script>", untrusted.ErrURLScheme},
		{"file:///etc/passwd", untrusted.ErrURLScheme},
		{"ftp://seller.example.com/", untrusted.ErrURLScheme},
		{"//seller.example.com/setup", untrusted.ErrURLScheme},
		{"/setup", untrusted.ErrURLScheme},
		{"https:seller.example.com/setup", untrusted.ErrURLOpaque},
		{"https:/seller.example.com/setup", untrusted.ErrURLOpaque},
		{"https://user:pass@seller.example.com/", untrusted.ErrURLUserinfo},
		{"https://@seller.example.com/", untrusted.ErrURLUserinfo},
		{"https://seller.example.com@evil.example/", untrusted.ErrURLUserinfo},
		{"https://evil.example/seller.example.com", untrusted.ErrURLHost},
		{"https://sub.seller.example.com/", untrusted.ErrURLHost},
		{"https://seller.example.com.evil.example/", untrusted.ErrURLHost},
		{"https://seller.example.com./", untrusted.ErrURLHost},
		{"https://xseller.example.com/", untrusted.ErrURLHost},
		{"https:///path", untrusted.ErrURLHost},
		{"https://seller.example.com:8443/", untrusted.ErrURLPort},
		{"https://seller.example.com:/", untrusted.ErrURLPort},
		{"", untrusted.ErrURLMalformed},
		{" https://seller.example.com/", untrusted.ErrURLMalformed},
		{"https://seller.example.com\\@evil.example/", untrusted.ErrURLMalformed},
		{"https://seller.example.com/\x00", untrusted.ErrURLMalformed},
		{"https://[::1]/", untrusted.ErrURLHost},
	} {
		_, err := untrusted.CheckSellerURL(c.url, domain)
		if c.want == nil {
			if err != nil {
				t.Errorf("%q: %v", c.url, err)
			}
			continue
		}
		var ue *untrusted.URLError
		if !errors.Is(err, c.want) || !errors.As(err, &ue) {
			t.Errorf("%q: %v, want %v", c.url, err, c.want)
		}
	}
	// Ports and bad domains.
	if _, err := untrusted.CheckSellerURL("https://seller.example.com:8443/x", "seller.example.com:8443"); err != nil {
		t.Errorf("explicit port: %v", err)
	}
	if _, err := untrusted.CheckSellerURL("https://seller.example.com/x", ""); !errors.Is(err, untrusted.ErrNoDomain) {
		t.Errorf("empty domain: %v", err)
	}
	if _, err := untrusted.CheckSellerURL("https://seller.example.com/x", "https://seller.example.com"); err == nil {
		t.Error("a URL accepted as the seller domain")
	}
}
