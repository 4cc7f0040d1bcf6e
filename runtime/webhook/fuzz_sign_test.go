package webhook_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/manifest"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// FuzzReceiverSignatures: whatever signature headers and body a post
// carries, a receiver verifying RFC 9421 beside HMAC never panics, hands
// the handler only what it answers 200, and refuses an RFC 9421 post with
// a webhook_* code.
func FuzzReceiverSignatures(f *testing.F) {
	body := []byte(`{"idempotency_key":"whk_01234567890123456789","task_id":"t","task_type":"create_thing","status":"completed","result":{"thing":{"thing_id":"th_1"}}}`)
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/hook/create_thing/op", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if err := testKeys.signer.SignRequest(req, body); err != nil {
		f.Fatal(err)
	}
	f.Add(req.Header.Get("Signature-Input"), req.Header.Get("Signature"), req.Header.Get("Content-Digest"), "", body, false)
	f.Add(req.Header.Get("Signature-Input"), "", "", "sha256=00", body, true)
	f.Add(`sig1=("@method");created=1`, `sig1=:AA==:`, `sha-256=:AA==:`, "", []byte(`{"a":1,"a":2}`), false)
	v, h := webhookVerifier(f), mustHMAC(f)
	f.Fuzz(func(t *testing.T, input, sig, digest, hmacSig string, body []byte, legacy bool) {
		handled := false
		rc := webhook.NewReceiver(manifest.Spec(), webhook.ReceiverOptions{Verifier: v, HMAC: h, Legacy: func(*http.Request) bool { return legacy }})
		rc.HandleOther(func(context.Context, *webhook.Notification) error { handled = true; return nil })
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/hook/create_thing/op", bytes.NewReader(body))
		for k, val := range map[string]string{"Signature-Input": input, "Signature": sig, "Content-Digest": digest, webhook.SignatureHeader: hmacSig} {
			if val != "" {
				req.Header.Set(k, val)
			}
		}
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		rc.ServeHTTP(rec, req)
		if handled != (rec.Code == http.StatusOK) {
			t.Fatalf("handled %v, answered %d", handled, rec.Code)
		}
		if rec.Code == http.StatusUnauthorized && !legacy && hmacSig == "" {
			if c, ok := signing.ParseChallenge(rec.Header().Get("WWW-Authenticate")); !ok || !signing.IsWebhookCode(c) {
				t.Fatalf("a 401 without a webhook_* challenge: %q", rec.Header().Get("WWW-Authenticate"))
			}
		}
	})
}
