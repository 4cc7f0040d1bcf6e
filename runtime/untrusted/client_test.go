package untrusted_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// The client reaches a loopback TLS server only when the policy allows
// loopback and its certificate authority is given; a LoopbackOnly client
// refuses any other host before resolving it; redirects are not followed.
func TestNewHTTPClient(t *testing.T) {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://example.com/", http.StatusFound)
	}))
	defer ts.Close()
	pool := ts.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs

	ok := untrusted.NewHTTPClient(untrusted.ClientOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}, LoopbackOnly: true, RootCAs: pool})
	resp, err := ok.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("redirect followed: %d", resp.StatusCode)
	}
	if _, err := untrusted.NewHTTPClient(untrusted.ClientOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}}).Get(ts.URL); err == nil {
		t.Error("a test certificate was trusted without its authority")
	}
	if _, err := untrusted.NewHTTPClient(untrusted.ClientOptions{RootCAs: pool}).Get(ts.URL); !errors.Is(err, untrusted.ErrURLInternal) {
		t.Errorf("production policy reached loopback: %v", err)
	}
	if _, err := ok.Get("https://example.com/"); !errors.Is(err, untrusted.ErrNotLoopback) {
		t.Errorf("LoopbackOnly: %v", err)
	}
}
