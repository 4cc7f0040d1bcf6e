package discovery

import (
	"context"
	"crypto"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func jwksDoc(t *testing.T, jwks ...*keys.JWK) string {
	b, err := (&keys.JWKS{Keys: jwks}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newKey(t *testing.T, kid string) (crypto.Signer, *keys.JWK) {
	k, j, err := keys.GenerateKey(keys.Ed25519, kid, nil)
	if err != nil {
		t.Fatal(err)
	}
	return k, j
}

// TestJWKSRefetch: a known kid is served from the cache; an unknown one
// refetches at once, then not again within 30 s; a rotated-in key is found
// by that refetch; the cache expires with its TTL.
func TestJWKSRefetch(t *testing.T) {
	s := newSite(t)
	_, k1 := newKey(t, "k1")
	_, k2 := newKey(t, "k2")
	s.serve("keys.seller.example", "/jwks.json", jwksDoc(t, k1))
	clk := &fakeClock{t: time.Unix(1776520800, 0)}
	src := NewJWKSEndpoint(s.url("keys.seller.example", "/jwks.json"), "https://agent.seller.example/mcp", JWKSOptions{Fetcher: s.fetcher, Now: clk.Now})
	ctx := context.Background()
	fetches := func() int { return s.count("keys.seller.example", "/jwks.json") }

	k, err := src.LookupKey(ctx, "k1")
	if err != nil || k.AgentURL != "https://agent.seller.example/mcp" || fetches() != 1 {
		t.Fatalf("%v %v, %d fetches", k, err, fetches())
	}
	if _, err := src.LookupKey(ctx, "k1"); err != nil || fetches() != 1 {
		t.Fatal("a known kid refetched")
	}
	if _, err := src.LookupKey(ctx, "nope"); signing.CodeOf(err) != signing.CodeKeyUnknown || fetches() != 2 {
		t.Fatalf("unknown kid: %v, %d fetches", err, fetches())
	}
	s.serve("keys.seller.example", "/jwks.json", jwksDoc(t, k1, k2))
	clk.Add(10 * time.Second)
	if _, err := src.LookupKey(ctx, "k2"); signing.CodeOf(err) != signing.CodeKeyUnknown || fetches() != 2 {
		t.Fatalf("within the cooldown: %v, %d fetches", err, fetches())
	}
	clk.Add(21 * time.Second)
	if _, err := src.LookupKey(ctx, "k2"); err != nil || fetches() != 3 {
		t.Fatalf("after the cooldown: %v, %d fetches", err, fetches())
	}
	clk.Add(DefaultKeyTTL)
	if _, err := src.LookupKey(ctx, "k1"); err != nil || fetches() != 4 {
		t.Fatalf("after the TTL: %v, %d fetches", err, fetches())
	}
	// Concurrent lookups of an expired cache share one fetch.
	clk.Add(DefaultKeyTTL)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = src.LookupKey(ctx, "k1") }()
	}
	wg.Wait()
	if fetches() != 5 {
		t.Fatalf("%d fetches for 20 concurrent lookups", fetches()-4)
	}
}

// TestJWKSHostile: a JWKS that redirects, is too large, is slow, has
// duplicate keys or is unreachable fails with the discovery code, and is
// not asked again for the failure's lifetime.
func TestJWKSHostile(t *testing.T) {
	s := newSite(t)
	_, k1 := newKey(t, "k1")
	good := jwksDoc(t, k1)
	s.handle("keys.seller.example", "/redirect.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/jwks.json", http.StatusMovedPermanently)
	})
	s.serve("keys.seller.example", "/big.json", `{"keys":[],"pad":"`+strings.Repeat("x", MaxJWKSBytes)+`"}`)
	s.serve("keys.seller.example", "/dup.json", strings.Replace(good, `"keys":`, `"keys":[],"keys":`, 1))
	s.serve("keys.seller.example", "/proto.json", `{"keys":[],"__proto__":{"polluted":true}}`)
	s.handle("keys.seller.example", "/slow.json", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	fast := &Fetcher{AllowLoopback: true, TLSConfig: s.fetcher.TLSConfig, resolve: s.resolve, Timeout: 200 * time.Millisecond}
	for _, c := range []struct {
		path string
		f    *Fetcher
		code signing.Code
	}{
		{"/redirect.json", s.fetcher, signing.CodeJWKSUntrusted},
		{"/big.json", s.fetcher, signing.CodeJWKSUntrusted},
		{"/dup.json", s.fetcher, signing.CodeJWKSUntrusted},
		{"/proto.json", s.fetcher, signing.CodeJWKSUntrusted},
		{"/slow.json", fast, signing.CodeJWKSUnavailable},
		{"/missing.json", s.fetcher, signing.CodeJWKSUnavailable},
	} {
		t.Run(c.path, func(t *testing.T) {
			src := NewJWKSEndpoint(s.url("keys.seller.example", c.path), "", JWKSOptions{Fetcher: c.f})
			for i := 0; i < 3; i++ {
				if _, err := src.LookupKey(context.Background(), "k1"); signing.CodeOf(err) != c.code {
					t.Fatalf("%v, want %s", err, c.code)
				}
			}
			if n := s.count("keys.seller.example", c.path); n != 1 {
				t.Fatalf("%d fetches of a failing JWKS in its failure window", n)
			}
		})
	}
	// On a verifier's webhook path the same failure is key_unknown,
	// wrapping the discovery code.
	p, _ := signing.WebhookProfile("3.2.0-beta.5")
	v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: NewJWKSEndpoint(s.url("keys.seller.example", "/dup.json"), "", JWKSOptions{Fetcher: s.fetcher})})
	key, jwk := newKey(t, "k1")
	_ = jwk
	sg, _ := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "k1", Key: key})
	m := &signing.Message{Method: "POST", URL: "https://buyer.example/hook", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)}
	_ = sg.Sign(m)
	_, err := v.Verify(context.Background(), m)
	var inner *signing.Rejection
	if signing.CodeOf(err) != signing.CodeWebhookKeyUnknown || !errorsAsInner(err, &inner) || inner.Code != signing.CodeJWKSUntrusted {
		t.Fatalf("webhook path: %v", err)
	}
}

func errorsAsInner(err error, target **signing.Rejection) bool {
	var outer *signing.Rejection
	if !asError(err, &outer) || outer.Err == nil {
		return false
	}
	return asError(outer.Err, target)
}
