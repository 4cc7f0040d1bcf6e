package mcpserver_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// A body that repeats a key is a correctable INVALID_REQUEST on every path,
// and never runs: signed, it is refused at security.mdx's verifier step 14
// with HTTP 401 and WWW-Authenticate: Signature error="request_body_malformed"
// and no more detail; unsigned, the strict decoder names the repeated
// argument's pointer in the call's answer, and the gate the repeated
// member of the request or its params (names compared ignoring case) with
// HTTP 400.
func TestRepeatedKeys(t *testing.T) {
	signed, signer := sellertest.Signed(t)
	s := sellertest.NewSeller(t, seller.Options{SignedRequests: signed, Authenticator: seller.APIKeys("x", keys)})
	url := start(t, s, mcpserver.Options{Stateless: true, JSONResponse: true})
	args := `{"idempotency_key":"0123456789abcdef","po_number":"PO-1","po_number":"PO-2","packages":[{"product_id":"p","budget":5}]}`
	for _, tc := range []struct {
		name, body string
		sign       bool
		status     int
		challenge  signing.Code
		field      string // the pointer the error names, "" for none
	}{
		{name: "signed, in the arguments", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":` + args + `}}`,
			sign: true, status: 401, challenge: signing.CodeBodyMalformed},
		{name: "signed, in the envelope", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","name":"create_media_buy","arguments":{}}}`,
			sign: true, status: 401, challenge: signing.CodeBodyMalformed},
		{name: "unsigned, in the arguments", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":` + args + `}}`,
			status: 200, field: "po_number"},
		{name: "unsigned, the tool's name", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","name":"create_media_buy","arguments":{}}}`,
			status: 400, field: "/params/name"},
		{name: "unsigned, the method in another case", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","Method":"tools/call","params":{"name":"create_media_buy","arguments":{}}}`,
			status: 400, field: "/Method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := s.Calls("create_media_buy") + s.Calls("get_products")
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer key-alice")
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
			if n := s.Calls("create_media_buy") + s.Calls("get_products"); n != before {
				t.Fatalf("a handler ran: %s", body)
			}
			r := x.MCP(body)
			if r.Error == nil || r.Error.Code != "INVALID_REQUEST" || r.Error.Recovery != registry.Correctable {
				t.Fatalf("extracted %+v from %s", r.Error, body)
			}
			if tc.field == "" && (r.Error.Field != "" || strings.Contains(string(body), "PO-")) {
				t.Errorf("a signature refusal says more than its code: %s", body)
			}
			if tc.field != "" && !strings.Contains(r.Error.Field, tc.field) {
				t.Errorf("field %q, want %q: %s", r.Error.Field, tc.field, body)
			}
			if !strings.Contains(r.Error.Message, "duplicate") {
				t.Errorf("the message does not name a duplicate: %q", r.Error.Message)
			}
		})
	}
}
