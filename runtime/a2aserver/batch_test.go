package a2aserver_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// A JSON-RPC batch is never weaker than its calls: on a seller whose only
// credential is an RFC 9421 signature, with create_media_buy in
// required_for, an unsigned create_media_buy in a batch is refused as it
// is alone (401 request_signature_required), and every other batch, signed
// or public, is refused with a correctable INVALID_REQUEST in the JSON-RPC
// error, where a2a-go would answer a bare parse error: no handler runs.
func TestBatchRefused(t *testing.T) {
	signed, signer := sellertest.Signed(t)
	s := sellertest.NewSeller(t, seller.Options{SignedRequests: signed})
	url := start(t, s) + "/a2a"
	message := func(id, skill, input string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"message/send","params":{"message":{"kind":"message","messageId":"m-` + id +
			`","role":"user","parts":[{"kind":"data","data":{"skill":"` + skill + `","input":` + input + `}}]}}}`
	}
	buy := func(id string) string {
		return message(id, "create_media_buy", `{"idempotency_key":"0123456789abcdef`+id+`","po_number":"async-`+id+`","packages":[{"product_id":"p","budget":5}]}`)
	}
	products := message("9", "get_products", `{"buying_mode":"brief"}`)
	for _, tc := range []struct {
		name, body        string
		sign              bool
		status            int
		challenge         signing.Code
		adcpCode, message string
		ran               bool
	}{
		{name: "alone, unsigned", body: buy("1"), status: 401, challenge: signing.CodeRequired, adcpCode: "AUTH_REQUIRED"},
		{name: "alone, signed", body: buy("2"), sign: true, status: 200, ran: true},
		{name: "a batch of it, unsigned", body: "[" + buy("3") + "]", status: 401, challenge: signing.CodeRequired, adcpCode: "AUTH_REQUIRED"},
		{name: "behind a public call, unsigned", body: "[" + products + "," + buy("4") + "]", status: 401, challenge: signing.CodeRequired, adcpCode: "AUTH_REQUIRED"},
		{name: "a batch of it, signed", body: "[" + buy("5") + "]", sign: true, status: 400, adcpCode: "INVALID_REQUEST", message: "JSON-RPC batches are not accepted"},
		{name: "a public batch, signed", body: "[" + products + "]", sign: true, status: 400, adcpCode: "INVALID_REQUEST", message: "send each request in a POST of its own"},
		// a2a-go reads "Method" as the method (encoding/json ignores case),
		// the gate "method": refused, or it would run unsigned.
		{name: "a buy behind tasks/get in another case, unsigned", body: strings.Replace(buy("6"), `"method":"message/send"`, `"method":"tasks/get","Method":"message/send"`, 1),
			status: 400, adcpCode: "INVALID_REQUEST", message: "duplicate member at /Method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := s.Calls("create_media_buy") + s.Calls("get_products")
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
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
			r := x.DetectError(body)
			if r.Error == nil || r.Error.Code != tc.adcpCode || !strings.Contains(r.Error.Message, tc.message) {
				t.Fatalf("extracted %+v from %s", r.Error, body)
			}
			if tc.status == 400 && strings.HasPrefix(tc.body, "[") && !bytes.Contains(body, []byte(`"id":null`)) {
				t.Errorf("a batch's refusal answers no one request: %s", body)
			}
		})
	}
}
