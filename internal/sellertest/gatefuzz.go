package sellertest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// Gated is what the transports' gate fuzz targets share: two sellers of
// the test spec verifying Signed's policy, one whose only credential is a
// signature and one that also takes the API key "key-alice", whose
// create_media_buy, list_creatives and get_products (public) handlers
// record who they ran for.
type Gated struct {
	Sellers []GatedSeller
	signer  *signing.Signer
	mu      sync.Mutex
	runs    []Run
}

// GatedSeller is one of Gated's sellers.
type GatedSeller struct {
	Name   string
	Server *seller.Server
}

// Run is one handler run: the tool and the principal it ran as.
type Run struct{ Tool, Principal string }

// NewGated builds the sellers.
func NewGated(t testing.TB) *Gated {
	t.Helper()
	signed, signer := Signed(t)
	signed.ReplayLimit = 1 << 30
	keyed := *signed
	g := &Gated{signer: signer}
	for _, c := range []struct {
		name string
		cfg  seller.Options
	}{
		{"signatures only", seller.Options{SignedRequests: signed}},
		{"and API keys", seller.Options{SignedRequests: &keyed, Authenticator: seller.APIKeys("x", map[string]string{"key-alice": "alice"})}},
	} {
		srv, err := seller.New(adcpt.Spec(), c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range []string{"create_media_buy", "list_creatives", "get_products"} {
			srv.HandleRaw(seller.RawTool{Name: tool, Public: tool == "get_products", Handler: func(_ context.Context, c *seller.Call) *seller.Answer {
				g.mu.Lock()
				g.runs = append(g.runs, Run{c.Tool.Name, c.Principal.ID})
				g.mu.Unlock()
				return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{}`)}
			}})
		}
		g.Sellers = append(g.Sellers, GatedSeller{c.name, srv})
	}
	return g
}

// Request is a POST of body to url, signed or not, with bearer 1 the
// accepted key, 2 a refused one, else none.
func (g *Gated) Request(t testing.TB, url string, body []byte, sign bool, bearer uint8) *http.Request {
	r := httptest.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	switch bearer % 3 {
	case 1:
		r.Header.Set("Authorization", "Bearer key-alice")
	case 2:
		r.Header.Set("Authorization", "Bearer key-mallory")
	}
	if sign {
		if err := g.signer.SignRequest(r, body); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// Runs returns and forgets the handler runs so far.
func (g *Gated) Runs() []Run {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.runs
	g.runs = nil
	return out
}
