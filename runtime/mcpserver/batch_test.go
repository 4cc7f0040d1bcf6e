package mcpserver_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// A JSON-RPC batch is never weaker than its calls: on a seller whose only
// credential is an RFC 9421 signature, with create_media_buy in
// required_for, an unsigned create_media_buy in a batch is refused as it
// is alone (401 request_signature_required), and every other batch, signed
// or public, is refused with a correctable INVALID_REQUEST: no handler runs.
// The batches announce MCP 2025-03-26, under which go-sdk itself would run
// them.
func TestBatchRefused(t *testing.T) {
	signed, signer := sellertest.Signed(t)
	s := sellertest.NewSeller(t, seller.Options{SignedRequests: signed})
	url := start(t, s, mcpserver.Options{Stateless: true, JSONResponse: true})
	buy := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"create_media_buy","arguments":` +
			`{"idempotency_key":"0123456789abcdef` + id + `","po_number":"async-` + id + `","packages":[{"product_id":"p","budget":5}]}}}`
	}
	products := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_products","arguments":{"buying_mode":"brief"}}}`
	for _, tc := range []struct {
		name, body, version string
		sign                bool
		status              int
		challenge           signing.Code
		adcpCode, message   string
		ran                 bool
	}{
		{name: "alone, unsigned", body: buy("1"), status: 401, challenge: signing.CodeRequired, adcpCode: "AUTH_REQUIRED"},
		{name: "alone, signed", body: buy("2"), sign: true, status: 200, ran: true},
		{name: "a batch of it, unsigned", body: "[" + buy("3") + "]", status: 401, challenge: signing.CodeRequired, adcpCode: "AUTH_REQUIRED"},
		{name: "behind a public call, unsigned", body: "[" + products + "," + buy("4") + "]", status: 401, challenge: signing.CodeRequired, adcpCode: "AUTH_REQUIRED"},
		{name: "a batch of it, signed", body: "[" + buy("5") + "]", sign: true, status: 400, adcpCode: "INVALID_REQUEST", message: "JSON-RPC batches are not accepted"},
		{name: "a public batch", body: "[" + products + "]", status: 400, adcpCode: "INVALID_REQUEST", message: "send each request in a POST of its own"},
		{name: "a public batch, 2025-06-18", body: "[" + products + "]", version: "2025-06-18", status: 400, adcpCode: "INVALID_REQUEST", message: "JSON-RPC batches are not accepted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := s.Calls("create_media_buy") + s.Calls("get_products")
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.version == "" {
				tc.version = "2025-03-26"
			}
			req.Header.Set("Mcp-Protocol-Version", tc.version)
			if tc.sign {
				if err := signer.SignRequest(req, []byte(tc.body)); err != nil {
					t.Fatal(err)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			code, _ := signing.ParseChallenge(resp.Header.Get("WWW-Authenticate"))
			if resp.StatusCode != tc.status || code != tc.challenge {
				t.Fatalf("HTTP %d %q, want %d %q: %s", resp.StatusCode, code, tc.status, tc.challenge, body)
			}
			ran := s.Calls("create_media_buy")+s.Calls("get_products") > before
			if ran != tc.ran {
				t.Fatalf("handler ran: %v, want %v (%s)", ran, tc.ran, body)
			}
			if tc.ran {
				if p := <-s.Principals; p.ID != sellertest.SignedAgent {
					t.Errorf("ran as %+v", p)
				}
				return
			}
			r := x.MCP(body)
			if r.Error == nil || r.Error.Code != tc.adcpCode || !strings.Contains(r.Error.Message, tc.message) {
				t.Fatalf("extracted %+v from %s", r.Error, body)
			}
			if tc.status == 400 && !bytes.Contains(body, []byte(`"id":null`)) {
				t.Errorf("a batch's refusal answers no one request: %s", body)
			}
		})
	}
}
