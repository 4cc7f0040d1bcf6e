package signedagents

import (
	"context"
	"net/http"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// The typed buyer, given its key, reads the seller's request_signing and
// signs exactly the operations it lists, over MCP and A2A, on every
// version: the seller's verifier accepts what it signs (the handler sees
// the buyer's keyid and agent URL), and the calls it does not list go
// unsigned, on the buyer's API key.
func TestBuyerSignsWhatTheSellerAsks(t *testing.T) {
	for _, v := range versions {
		t.Run(v.version, func(t *testing.T) {
			r := newRig(t, v.version, v.source, nil)
			sp := specOf(t, v.version, v.source)
			for _, transport := range []string{"mcp", "a2a"} {
				t.Run(transport, func(t *testing.T) {
					cs, err := signing.NewCallSigner(signing.CallSignerOptions{Version: v.version, KeyID: keyID, Key: buyerKeys.key})
					if err != nil {
						t.Fatal(err)
					}
					hc := &http.Client{Transport: &bearer{key: buyerKey, base: cs.Transport(nil)}}
					ctx := context.Background()
					var tr buyer.Transport
					if transport == "mcp" {
						s, err := mcpclient.ConnectHTTP(ctx, r.srv.URL+"/mcp", hc, mcpclient.ConnectOptions{})
						if err != nil {
							t.Fatal(err)
						}
						defer s.Close()
						tr = s
					} else {
						c, err := a2aclient.Dial(ctx, r.srv.URL, hc)
						if err != nil {
							t.Fatal(err)
						}
						defer c.Close()
						tr = c
					}
					c, err := buyer.New(sp, tr, buyer.WithRequestSigning(cs), buyer.WithoutRetries())
					if err != nil {
						t.Fatal(err)
					}
					r.handled()
					for _, tc := range []struct {
						tool, keyID, principal string
					}{
						{"create_media_buy", keyID, "buyer"},
						{"get_products", "", "buyer"},
						{"sync_creatives", keyID, "buyer"},
					} {
						if _, err := c.Invoke(ctx, tc.tool, []byte(`{}`)); err != nil {
							t.Fatalf("%s: %v", tc.tool, err)
						}
						runs := r.handled()
						if len(runs) != 1 || runs[0].keyID != tc.keyID || runs[0].principal != tc.principal {
							t.Fatalf("%s: the handler saw %+v, want signer %q", tc.tool, runs, tc.keyID)
						}
						if tc.keyID != "" && runs[0].agent != buyerAgent {
							t.Fatalf("%s: agent %q", tc.tool, runs[0].agent)
						}
					}
				})
			}
		})
	}
}

// bearer adds the buyer's API key to every request.
type bearer struct {
	key  string
	base http.RoundTripper
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.base.RoundTrip(r)
}
