package seller_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// ReadRPCBody and CheckRPCBody: the bytes the gate sees are the bytes the
// SDK behind it reads; a refused body is a JSON-RPC error response
// carrying a correctable INVALID_REQUEST the extractor reads, to the
// request's id when the bytes read name one: 413 past MaxRequestBytes plus
// the envelope, 400 for what is not JSON, not a request object (a batch
// included), or has params that are not structured; a GET reads nothing.
func TestReadRPCBody(t *testing.T) {
	srv, err := seller.New(adcpt.Spec(), seller.Options{MaxRequestBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	small := `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`
	limit := 100 + 64<<10
	pad := func(n int) string { // a request of n bytes
		head := `{"jsonrpc":"2.0","id":"req-7","method":"tools/call","params":{"a":"`
		return head + strings.Repeat("x", n-len(head)-3) + `"}}`
	}
	for _, tc := range []struct {
		name, method, body string
		ok                 bool
		status             int
		id                 string // of the refusal
		rpcCode            float64
		message            string // in the adcp_error
	}{
		{name: "a call", method: http.MethodPost, body: small, ok: true, status: http.StatusOK},
		{name: "the cap exactly", method: http.MethodPost, body: pad(limit), ok: true, status: http.StatusOK},
		{name: "past the cap", method: http.MethodPost, body: pad(limit + 1), status: http.StatusRequestEntityTooLarge,
			id: `"req-7"`, rpcCode: -32600, message: "over the 65636 this agent accepts"},
		{name: "past the cap, no id first", method: http.MethodPost, body: `{"params":"` + strings.Repeat("x", limit) + `","id":1}`,
			status: http.StatusRequestEntityTooLarge, id: "null", rpcCode: -32600, message: "over the 65636"},
		{name: "not JSON", method: http.MethodPost, body: `{"jsonrpc":"2.0","id":5,"method":`, status: http.StatusBadRequest,
			id: "5", rpcCode: -32700, message: "not JSON"},
		{name: "nested too deep", method: http.MethodPost, body: `{"id":6,"params":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
			status: http.StatusBadRequest, id: "6", rpcCode: -32700, message: "nesting deeper than 512 levels"},
		{name: "no request object", method: http.MethodPost, body: `"tools/call"`, status: http.StatusBadRequest,
			id: "null", rpcCode: -32600, message: "not a JSON-RPC 2.0 request object"},
		{name: "a batch with a number", method: http.MethodPost, body: `[` + small + `,1]`, status: http.StatusBadRequest,
			id: "null", rpcCode: -32600, message: "JSON-RPC batches are not accepted"},
		{name: "params a string", method: http.MethodPost, body: `{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":"x"}`,
			status: http.StatusBadRequest, id: `"r1"`, rpcCode: -32602, message: "params are not an object"},
		{name: "params a string in a batch", method: http.MethodPost, body: `[` + small + `,{"jsonrpc":"2.0","id":2,"method":"tools/list","params":true}]`,
			status: http.StatusBadRequest, id: "null", rpcCode: -32600, message: "send each request in a POST of its own"},
		{name: "a batch", method: http.MethodPost, body: `[` + small + `,{"jsonrpc":"2.0","method":"ping","params":[]}]`, status: http.StatusBadRequest,
			id: "null", rpcCode: -32600, message: "JSON-RPC batches are not accepted"},
		{name: "a batch of one", method: http.MethodPost, body: `[` + small + `]`, status: http.StatusBadRequest,
			id: "null", rpcCode: -32600, message: "JSON-RPC batches are not accepted"},
		{name: "an empty batch", method: http.MethodPost, body: `[]`, status: http.StatusBadRequest,
			id: "null", rpcCode: -32600, message: "JSON-RPC batches are not accepted"},
		{name: "a response to the server", method: http.MethodPost, body: `{"jsonrpc":"2.0","id":3,"result":{}}`, ok: true, status: http.StatusOK},
		{name: "a GET", method: http.MethodGet, ok: true, status: http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest(tc.method, "/mcp", strings.NewReader(tc.body))
			body, ok := srv.ReadRPCBody(w, r)
			if ok {
				ok = srv.CheckRPCBody(w, body)
			}
			if ok != tc.ok || w.Code != tc.status {
				t.Fatalf("ok %v, status %d; want %v, %d", ok, w.Code, tc.ok, tc.status)
			}
			if !ok {
				var resp struct {
					ID    json.RawMessage `json:"id"`
					Error struct {
						Code float64 `json:"code"`
					} `json:"error"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || w.Header().Get("Content-Type") != "application/json" ||
					string(resp.ID) != tc.id || resp.Error.Code != tc.rpcCode {
					t.Fatalf("refusal %s %q (%v), want id %s code %v", w.Header().Get("Content-Type"), w.Body, err, tc.id, tc.rpcCode)
				}
				res := extract.New(adcpt.Spec()).MCP(w.Body.Bytes())
				if res.Error == nil || res.Error.Code != "INVALID_REQUEST" || res.Error.Recovery != registry.Correctable ||
					!strings.Contains(res.Error.Message, tc.message) {
					t.Fatalf("extracted %+v from %s", res.Error, w.Body)
				}
				return
			}
			if tc.method != http.MethodPost {
				if body != nil {
					t.Fatalf("body %d bytes, want none", len(body))
				}
				return
			}
			again, _ := io.ReadAll(r.Body)
			if string(body) != tc.body || string(again) != tc.body {
				t.Fatalf("read %d bytes, r.Body then has %d; want %d both", len(body), len(again), len(tc.body))
			}
		})
	}
}
