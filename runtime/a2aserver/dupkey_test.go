package a2aserver_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A body that repeats a key is a correctable INVALID_REQUEST on every path,
// and never runs: signed, it is refused at security.mdx's verifier step 14
// with HTTP 401 and WWW-Authenticate: Signature error="request_body_malformed"
// and no more detail; unsigned, the strict decoder names the repeated
// input's pointer in a failed task, and the gate the repeated member of the
// request or its params with HTTP 400, names compared ignoring case, as
// a2a-go (encoding/json) reads them: "Method" beside "method" would
// otherwise be authenticated as one call and run as another.
func TestRepeatedKeys(t *testing.T) {
	signed, signer := sellertest.Signed(t)
	s := sellertest.NewSeller(t, seller.Options{SignedRequests: signed, Authenticator: seller.APIKeys("x", keys)})
	url := start(t, s) + "/a2a"
	message := func(method, skill, input string) string {
		return `{"jsonrpc":"2.0","id":"1",` + method + `,"params":{"id":"t","message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","data":{"skill":"` + skill + `","input":` + input + `}}]}}}`
	}
	args := `{"idempotency_key":"0123456789abcdef","po_number":"PO-1","po_number":"PO-2","packages":[{"product_id":"p","budget":5}]}`
	clean := `{"idempotency_key":"0123456789abcdef","po_number":"async-1","packages":[{"product_id":"p","budget":5}]}`
	for _, tc := range []struct {
		name, body, bearer string
		sign               bool
		status             int
		challenge          signing.Code
		field              string // the pointer the error names, "" for none
	}{
		{name: "signed, in the input", body: message(`"method":"message/send"`, "create_media_buy", args),
			sign: true, status: 401, challenge: signing.CodeBodyMalformed},
		{name: "signed, in the envelope", body: message(`"method":"message/send","method":"message/send"`, "create_media_buy", clean),
			sign: true, status: 401, challenge: signing.CodeBodyMalformed},
		{name: "unsigned, in the input", body: message(`"method":"message/send"`, "create_media_buy", args), bearer: "key-alice",
			status: 200, field: "po_number"},
		{name: "unsigned, the method twice", body: message(`"method":"tasks/get","method":"message/send"`, "create_media_buy", clean), bearer: "key-alice",
			status: 400, field: "/method"},
		{name: "unsigned, the method in another case", body: message(`"method":"tasks/get","Method":"message/send"`, "create_media_buy", clean), bearer: "key-alice",
			status: 400, field: "/Method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := s.Calls("create_media_buy")
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			if tc.bearer != "" {
				req.Header.Set("Authorization", "Bearer "+tc.bearer)
			}
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
			if s.Calls("create_media_buy") != before {
				t.Fatalf("the handler ran: %s", body)
			}
			var r *extract.Result
			if tc.status == 200 {
				r = x.A2A(wire.Lenient(body).Get("result"))
			} else {
				r = x.DetectError(body)
			}
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
