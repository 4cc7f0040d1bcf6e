package discovery

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// TestAgentChain runs the brand_json_url discovery chain against a real
// TLS server, one defect per case, each failing with its code.
func TestAgentChain(t *testing.T) {
	s := newSite(t)
	key, k1 := newKey(t, "k1")
	s.serve("keys.seller.example", "/jwks.json", jwksDoc(t, k1))
	agent := s.url("agent.seller.example", "/mcp")
	other := s.url("agent.other.example", "/mcp")
	brandURL := s.url("www.seller.example", "/.well-known/brand.json")
	jwksURI := s.url("keys.seller.example", "/jwks.json")
	caps := func(identity string) string { return `{"adcp":{"major_versions":[3]},"identity":` + identity + `}` }
	okCaps := caps(`{"brand_json_url":"` + brandURL + `","key_origins":{"request_signing":"` + s.url("keys.seller.example", "") + `"}}`)
	entry := func(url string) string { return `{"type":"buying","url":"` + url + `","jwks_uri":"` + jwksURI + `"}` }
	okBrand := `{"name":"Seller","agents":[` + entry(agent) + `]}`
	for _, c := range []struct {
		name      string
		agentURL  string
		caps      string
		capsErr   error
		brand     string
		brandPath string
		handler   http.HandlerFunc // serves brand.json instead of brand
		fetcher   *Fetcher
		code      signing.Code
	}{
		{name: "resolves", caps: okCaps, brand: okBrand},
		{name: "no key_origins and no signing posture", caps: caps(`{"brand_json_url":"` + brandURL + `"}`), brand: okBrand},
		{name: "house agents", caps: okCaps, brand: `{"house":{"domain":"seller.example","agents":[` + entry(agent) + `]}}`},
		{name: "capabilities unreachable", capsErr: errors.New("connection refused"), code: signing.CodeCapabilitiesUnreachable},
		{name: "capabilities with a duplicate key", caps: `{"identity":{},"identity":{"brand_json_url":"` + brandURL + `"}}`, code: signing.CodeCapabilitiesUnreachable},
		{name: "no brand_json_url", caps: caps(`{}`), code: signing.CodeBrandJSONURLMissing},
		{name: "http brand_json_url", caps: caps(`{"brand_json_url":"http://www.seller.example/.well-known/brand.json"}`), code: signing.CodeBrandJSONURLMissing},
		{name: "brand.json missing", caps: okCaps, brandPath: "/elsewhere", code: signing.CodeBrandJSONUnreachable},
		{name: "brand.json redirects", caps: okCaps, handler: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://agent.other.example/.well-known/brand.json", http.StatusFound)
		}, code: signing.CodeBrandJSONUnreachable},
		{name: "brand.json is slow", caps: okCaps, handler: func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			fetcher: &Fetcher{AllowLoopback: true, TLSConfig: s.fetcher.TLSConfig, resolve: s.resolve, Timeout: 200 * time.Millisecond}, code: signing.CodeBrandJSONUnreachable},
		{name: "brand.json on a private address", caps: okCaps, brand: okBrand,
			fetcher: &Fetcher{TLSConfig: s.fetcher.TLSConfig, resolve: s.resolve}, code: signing.CodeBrandJSONUnreachable},
		{name: "brand.json with duplicate keys", caps: okCaps, brand: `{"agents":[],"agents":[` + entry(agent) + `]}`, code: signing.CodeBrandJSONMalformed},
		{name: "brand.json too large", caps: okCaps, brand: `{"agents":[` + entry(agent) + `],"pad":"` + strings.Repeat("x", MaxBrandJSONBytes) + `"}`, code: signing.CodeBrandJSONMalformed},
		{name: "another site's agent", agentURL: other, caps: okCaps, brand: `{"agents":[` + entry(other) + `]}`, code: signing.CodeBrandOriginMismatch},
		{name: "another site's agent, delegated", agentURL: other, caps: okCaps,
			brand: `{"agents":[` + entry(other) + `],"authorized_operators":[{"domain":"other.example","valid_from":"2020-01-01T00:00:00Z"}]}`},
		{name: "another site's agent, delegation expired", agentURL: other, caps: okCaps,
			brand: `{"agents":[` + entry(other) + `],"authorized_operators":[{"domain":"other.example","valid_until":"2021-01-01T00:00:00Z"}]}`, code: signing.CodeBrandOriginMismatch},
		{name: "trailing slash", caps: okCaps, brand: `{"agents":[` + entry(agent+"/") + `]}`, code: signing.CodeAgentNotInBrandJSON},
		{name: "two entries", caps: okCaps, brand: `{"agents":[` + entry(agent) + `,` + entry(agent) + `]}`, code: signing.CodeBrandJSONAmbiguous},
		{name: "key origin elsewhere", caps: caps(`{"brand_json_url":"` + brandURL + `","key_origins":{"request_signing":"https://keys.other.example"}}`), brand: okBrand, code: signing.CodeKeyOriginMismatch},
		{name: "signing posture without a key origin", caps: `{"request_signing":{"supported":true,"supported_for":["create_media_buy"]},"identity":{"brand_json_url":"` + brandURL + `"}}`, brand: okBrand, code: signing.CodeKeyOriginMissing},
		{name: "http jwks_uri", caps: okCaps, brand: `{"agents":[{"url":"` + agent + `","jwks_uri":"http://keys.seller.example/jwks.json"}]}`, code: signing.CodeJWKSUntrusted},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := c.brandPath
			if path == "" {
				path = "/.well-known/brand.json"
			}
			s.serve("www.seller.example", path, c.brand)
			if c.handler != nil {
				s.handle("www.seller.example", path, c.handler)
			}
			defer s.handle("www.seller.example", path, nil)
			fetcher := s.fetcher
			if c.fetcher != nil {
				fetcher = c.fetcher
			}
			a := c.agentURL
			if a == "" {
				a = agent
			}
			calls := 0
			src := NewAgent(a, CapabilitiesFunc(func(_ context.Context, u string) ([]byte, error) {
				calls++
				if u != a {
					t.Errorf("capabilities asked of %s", u)
				}
				return []byte(c.caps), c.capsErr
			}), AgentOptions{Fetcher: fetcher})
			got, err := src.LookupKey(context.Background(), "k1")
			if c.code != "" {
				if signing.CodeOf(err) != c.code {
					t.Fatalf("%v, want %s", err, c.code)
				}
				// A failure is remembered: no second capabilities call.
				_, _ = src.LookupKey(context.Background(), "k1")
				if calls != 1 {
					t.Fatalf("%d capabilities calls", calls)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.AgentURL != a {
				t.Fatalf("agent URL %q", got.AgentURL)
			}
		})
	}

	// End to end: a request signed by the agent's key verifies through the
	// chain, and the verified signer's agent URL is the agents[] entry's.
	s.serve("www.seller.example", "/.well-known/brand.json", okBrand)
	p, _ := signing.RequestProfile("3.2.0-beta.5")
	v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: NewAgent(agent, CapabilitiesFunc(func(context.Context, string) ([]byte, error) {
		return []byte(okCaps), nil
	}), AgentOptions{Fetcher: s.fetcher})})
	sg, _ := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "k1", Key: key})
	m := &signing.Message{Method: "POST", URL: "https://seller.example/mcp", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"a":1}`)}
	if err := sg.Sign(m); err != nil {
		t.Fatal(err)
	}
	signer, err := v.Verify(context.Background(), m)
	if err != nil || signer.AgentURL != agent {
		t.Fatalf("%+v %v", signer, err)
	}
}

// TestRevocationPoller: the signed list is fetched, checked and installed;
// a 304 refreshes it; a tampered list is refused and the view goes stale.
func TestRevocationPoller(t *testing.T) {
	s := newSite(t)
	opsKey, opsJWK := newKey(t, "ops-1")
	opsKeys := keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{opsJWK}}}
	now := time.Now().UTC().Truncate(time.Second)
	list := signedList(t, opsKey, "ops-1", `{"version":1,"issuer":"https://seller.example","updated":"`+now.Format(time.RFC3339)+`","next_update":"`+now.Add(15*time.Minute).Format(time.RFC3339)+`","revoked_kids":["k-bad"],"revoked_jtis":[]}`)
	served := list
	s.handle("www.seller.example", "/.well-known/revocations.json", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` && served == list {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		_, _ = w.Write([]byte(served))
	})
	clk := &fakeClock{t: now}
	r := &revocation.Feed{}
	p := &RevocationPoller{URL: s.url("www.seller.example", "/.well-known/revocations.json"), Issuer: "https://seller.example", Keys: opsKeys, Fetcher: s.fetcher, Revocations: r, Now: clk.Now}
	ctx := context.Background()
	if err := p.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	if bad, err := r.Revoked(ctx, "k-bad", now); !bad || err != nil {
		t.Fatal(bad, err)
	}
	clk.Add(20 * time.Minute)
	if err := p.Poll(ctx); err != nil { // 304
		t.Fatal(err)
	}
	if _, err := r.Revoked(ctx, "k-ok", clk.Now().Add(time.Minute)); err != nil {
		t.Fatal("a 304 did not refresh the list:", err)
	}
	served = strings.Replace(list, `"signature":"`, `"signature":"A`, 1)
	clk.Add(time.Minute)
	if err := p.Poll(ctx); err == nil {
		t.Fatal("a tampered list was installed")
	}
	if _, err := r.Revoked(ctx, "k-ok", clk.Now().Add(3*time.Hour)); !errors.Is(err, revocation.ErrStale) {
		t.Fatal("the view did not go stale:", err)
	}
}
