package discovery

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestFetcherRefuses: every SSRF rule and cap, each against a real TLS
// server on loopback (or refused before any connection).
func TestFetcherRefuses(t *testing.T) {
	s := newSite(t)
	s.serve("www.seller.example", "/ok.json", `{"ok":true}`)
	s.handle("www.seller.example", "/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	s.serve("www.seller.example", "/big.json", `{"pad":"`+strings.Repeat("x", MaxJWKSBytes)+`"}`)
	s.handle("www.seller.example", "/big-chunked.json", func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i < 70; i++ {
			_, _ = w.Write([]byte(strings.Repeat("x", 1024)))
			w.(http.Flusher).Flush()
		}
	})
	s.handle("www.seller.example", "/slow.json", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	s.handle("www.seller.example", "/500", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(500) })

	strictFetcher := &Fetcher{TLSConfig: s.fetcher.TLSConfig, resolve: s.resolve} // loopback not allowed
	mixed := &Fetcher{resolve: func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("10.0.0.7")}, nil
	}}
	cgnat := &Fetcher{resolve: func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("100.64.1.1")}, nil
	}}
	fast := &Fetcher{AllowLoopback: true, TLSConfig: s.fetcher.TLSConfig, resolve: s.resolve, Timeout: 300 * time.Millisecond}
	for _, c := range []struct {
		name string
		f    *Fetcher
		url  string
		kind FetchErrorKind
	}{
		{"ok", s.fetcher, s.url("www.seller.example", "/ok.json"), 0},
		{"http", s.fetcher, "http://www.seller.example:" + s.port + "/ok.json", Untrusted},
		{"userinfo", s.fetcher, "https://u:p@www.seller.example:" + s.port + "/ok.json", Untrusted},
		{"redirect to the metadata address", s.fetcher, s.url("www.seller.example", "/redirect"), Untrusted},
		{"too large, declared", s.fetcher, s.url("www.seller.example", "/big.json"), TooLarge},
		{"too large, streamed", s.fetcher, s.url("www.seller.example", "/big-chunked.json"), TooLarge},
		{"slow", fast, s.url("www.seller.example", "/slow.json"), Unavailable},
		{"server error", s.fetcher, s.url("www.seller.example", "/500"), Unavailable},
		{"not found", s.fetcher, s.url("www.seller.example", "/nothing"), Unavailable},
		{"a name that resolves to loopback", strictFetcher, s.url("www.seller.example", "/ok.json"), Untrusted},
		{"loopback literal", strictFetcher, "https://127.0.0.1:" + s.port + "/ok.json", Untrusted},
		{"private literal", s.fetcher, "https://10.1.2.3/jwks.json", Untrusted},
		{"metadata literal", s.fetcher, "https://169.254.169.254/jwks.json", Untrusted},
		{"IPv4-mapped IPv6 literal", s.fetcher, "https://[::ffff:10.0.0.1]/jwks.json", Untrusted},
		{"a name with a private address among public ones", mixed, "https://keys.example.net/jwks.json", Untrusted},
		{"a name in CGNAT space", cgnat, "https://keys.example.net/jwks.json", Untrusted},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := c.f.Get(context.Background(), c.url, MaxJWKSBytes, nil)
			if c.kind == 0 {
				if err != nil || string(resp.Body) != `{"ok":true}` {
					t.Fatalf("%v %v", resp, err)
				}
				return
			}
			var fe *FetchError
			if !errors.As(err, &fe) || fe.Kind != c.kind {
				t.Fatalf("got %v, want %s", err, c.kind)
			}
		})
	}
}
