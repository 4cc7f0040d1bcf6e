package webhook_test

import (
	"bytes"
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/manifest"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// sellerURL is the agent the test keys belong to.
const sellerURL = "https://seller.example/mcp"

// testKeys is a seller's webhook key: its signer (the webhook profile of
// 3.1, where a request-signing key signs webhooks), a request-profile
// signer with the same key, and the public JWKS.
var testKeys = func() (k struct {
	key                   crypto.Signer
	jwks                  *keys.JWKS
	signer, requestSigner *signing.Signer
}) {
	key, jwk, err := keys.GenerateKey(keys.Ed25519, "seller-webhook-2026", nil)
	if err != nil {
		panic(err)
	}
	k.key, k.jwks = key, &keys.JWKS{Keys: []*keys.JWK{jwk}}
	wp, _ := signing.WebhookProfile("3.1.19")
	rp, _ := signing.RequestProfile("3.1.19")
	if k.signer, err = signing.NewSigner(signing.SignerOptions{Profile: wp, KeyID: jwk.KeyID, Key: key}); err != nil {
		panic(err)
	}
	if k.requestSigner, err = signing.NewSigner(signing.SignerOptions{Profile: rp, KeyID: jwk.KeyID, Key: key}); err != nil {
		panic(err)
	}
	return k
}()

// webhookVerifier verifies the seller's webhooks posted over plain HTTP
// to httptest (the scheme the sender signed).
func webhookVerifier(t testing.TB) *signing.Verifier {
	t.Helper()
	wp, _ := signing.WebhookProfile("3.1.19")
	v, err := signing.NewVerifier(signing.VerifierOptions{Profile: wp, Keys: keys.Static{Set: testKeys.jwks, AgentURL: sellerURL}, Scheme: "http"})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// signedRig is a receiver verifying RFC 9421 webhooks, behind a front that
// records every post and can fail the first ones.
type signedRig struct {
	srv    *httptest.Server
	rc     *webhook.Receiver
	mu     sync.Mutex
	events []*thingEvent
	posts  []*http.Request
	bodies [][]byte
	codes  []int
	fail   atomic.Int32 // posts still to answer 503 before the receiver sees them
	// block, when set, holds the handler until closed, after it says so
	// on entered.
	block, entered chan struct{}
}

func newSignedRig(t *testing.T, opts webhook.ReceiverOptions) *signedRig {
	t.Helper()
	rig := &signedRig{}
	rig.rc = webhook.NewReceiver(manifest.Spec(), opts)
	//lint:ignore SA1019 the golden manifest deprecates its one async tool on purpose
	if err := webhook.On(rig.rc, manifest.Tools.CreateThing, func(_ context.Context, ev *thingEvent) error {
		if rig.block != nil {
			rig.entered <- struct{}{}
			<-rig.block
		}
		rig.mu.Lock()
		defer rig.mu.Unlock()
		rig.events = append(rig.events, ev)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /hook/{task_type}/{operation_id}", rig.rc)
	rig.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rig.mu.Lock()
		rig.posts = append(rig.posts, r.Clone(context.Background()))
		rig.bodies = append(rig.bodies, body)
		rig.mu.Unlock()
		if rig.fail.Add(-1) >= 0 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, r)
		rig.mu.Lock()
		rig.codes = append(rig.codes, rec.Code)
		rig.mu.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(rig.srv.Close)
	return rig
}

func (rig *signedRig) url() string { return rig.srv.URL + "/hook/create_thing/op_1" }

// A post with no authentication is signed with RFC 9421; every attempt is
// signed afresh (a new nonce), the body and its idempotency_key stay, and
// the receiver verifies it with the seller's key and hands it over once,
// with the verified signer.
func TestSenderSignsRFC9421(t *testing.T) {
	rig := newSignedRig(t, webhook.ReceiverOptions{Verifier: webhookVerifier(t)})
	rig.fail.Store(2)
	body := completedPayload(t)
	if err := testSender(webhook.SenderOptions{}).Send(t.Context(), webhook.Push{Config: webhook.PushConfig{URL: rig.url()}, Body: body}); err != nil {
		t.Fatal(err)
	}
	rig.mu.Lock()
	defer rig.mu.Unlock()
	if len(rig.posts) != 3 || len(rig.events) != 1 {
		t.Fatalf("%d posts, %d events; want 3 and 1", len(rig.posts), len(rig.events))
	}
	nonces := map[string]bool{}
	for i, p := range rig.posts {
		in := p.Header.Get("Signature-Input")
		if !strings.Contains(in, `tag="adcp/webhook-signing/v1"`) || !strings.Contains(in, `"content-digest"`) ||
			p.Header.Get("Content-Digest") == "" || p.Header.Get(webhook.SignatureHeader) != "" {
			t.Fatalf("post %d: Signature-Input %q, Content-Digest %q, X-ADCP-Signature %q", i, in, p.Header.Get("Content-Digest"), p.Header.Get(webhook.SignatureHeader))
		}
		_, nonce, _ := strings.Cut(in, `nonce="`)
		nonces[nonce] = true
		if !bytes.Equal(rig.bodies[i], body) {
			t.Fatalf("post %d carried another body", i)
		}
	}
	if len(nonces) != 3 {
		t.Fatalf("%d distinct nonces over 3 attempts", len(nonces))
	}
	ev := rig.events[0]
	if s := ev.Notification.Signer; s == nil || s.KeyID != "seller-webhook-2026" || s.AgentURL != sellerURL {
		t.Fatalf("signer %+v", s)
	}
}

// The receiver's refusals, each a 401 with its webhook_* code the sender
// reads as final, or the delivery-key answers: 2xx for an exact duplicate
// (even re-serialized), 409 for the key reused with another payload.
func TestReceiverRFC9421(t *testing.T) {
	v := webhookVerifier(t)
	post := func(t *testing.T, rig *signedRig, body []byte, edit func(*http.Request)) (int, signing.Code) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, rig.url(), bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if err := testKeys.signer.SignRequest(req, body); err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			edit(req)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		c, _ := signing.ParseChallenge(resp.Header.Get("WWW-Authenticate"))
		return resp.StatusCode, c
	}
	body := completedPayload(t)
	cases := []struct {
		name string
		opts webhook.ReceiverOptions
		edit func(*http.Request)
		want int
		code signing.Code
	}{
		{"signed", webhook.ReceiverOptions{Verifier: v}, nil, 200, ""},
		{"unsigned", webhook.ReceiverOptions{Verifier: v}, func(r *http.Request) {
			r.Header.Del("Signature")
			r.Header.Del("Signature-Input")
		}, 401, signing.CodeWebhookHeaderMalformed},
		{"body changed", webhook.ReceiverOptions{Verifier: v}, func(r *http.Request) {
			b := bytes.Replace(body, []byte("th_1"), []byte("th_2"), 1)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		}, 401, signing.CodeWebhookDigestMismatch},
		{"HMAC on a 9421 registration", webhook.ReceiverOptions{Verifier: v}, func(r *http.Request) {
			r.Header.Set(webhook.SignatureHeader, "sha256=00")
		}, 401, signing.CodeWebhookModeMismatch},
		{"9421 on an HMAC registration", webhook.ReceiverOptions{HMAC: mustHMAC(t)}, nil, 401, signing.CodeWebhookModeMismatch},
		{"9421 where Legacy says HMAC", webhook.ReceiverOptions{Verifier: v, HMAC: mustHMAC(t), Legacy: func(*http.Request) bool { return true }}, nil, 401, signing.CodeWebhookModeMismatch},
		{"9421 where Legacy says 9421", webhook.ReceiverOptions{Verifier: v, HMAC: mustHMAC(t), Legacy: func(*http.Request) bool { return false }}, nil, 200, ""},
		{"a request-profile signature", webhook.ReceiverOptions{Verifier: v}, func(r *http.Request) {
			if err := testKeys.requestSigner.SignRequest(r, body); err != nil {
				t.Fatal(err)
			}
		}, 401, signing.CodeWebhookTagInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rig := newSignedRig(t, c.opts)
			if got, code := post(t, rig, body, c.edit); got != c.want || code != c.code {
				t.Fatalf("HTTP %d %q, want %d %q", got, code, c.want, c.code)
			}
		})
	}

	t.Run("replayed signature", func(t *testing.T) {
		rig := newSignedRig(t, webhook.ReceiverOptions{Verifier: v})
		var first *http.Request
		post(t, rig, body, func(r *http.Request) { first = r.Clone(context.Background()) })
		got, code := post(t, rig, body, func(r *http.Request) { r.Header = first.Header.Clone() })
		if got != 401 || code != signing.CodeWebhookReplayed {
			t.Fatalf("HTTP %d %q", got, code)
		}
	})
	t.Run("delivery key binding", func(t *testing.T) {
		rig := newSignedRig(t, webhook.ReceiverOptions{Verifier: v})
		if got, _ := post(t, rig, body, nil); got != 200 {
			t.Fatal(got)
		}
		// The same event re-serialized (spaces, another member order) is
		// the same payload: acknowledged, not handled again.
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		again, _ := json.MarshalIndent(m, "", "  ")
		if got, _ := post(t, rig, again, nil); got != 200 {
			t.Fatalf("duplicate: HTTP %d", got)
		}
		changed := bytes.Replace(body, []byte("th_1"), []byte("th_9"), 1)
		if got, _ := post(t, rig, changed, nil); got != http.StatusConflict {
			t.Fatalf("same key, another payload: HTTP %d, want 409", got)
		}
		if len(rig.events) != 1 {
			t.Fatalf("%d events handled", len(rig.events))
		}
	})
	t.Run("in progress", func(t *testing.T) {
		rig := newSignedRig(t, webhook.ReceiverOptions{Verifier: v})
		rig.block, rig.entered = make(chan struct{}), make(chan struct{}, 1)
		done := make(chan int)
		first, _ := http.NewRequest(http.MethodPost, rig.url(), bytes.NewReader(body))
		first.Header.Set("Content-Type", "application/json")
		if err := testKeys.signer.SignRequest(first, body); err != nil {
			t.Fatal(err)
		}
		go func() {
			resp, err := http.DefaultClient.Do(first)
			if err != nil {
				done <- 0
				return
			}
			resp.Body.Close()
			done <- resp.StatusCode
		}()
		<-rig.entered
		got, _ := post(t, rig, body, nil)
		close(rig.block)
		if got != http.StatusServiceUnavailable {
			t.Fatalf("a copy while the first is handled: HTTP %d, want 503", got)
		}
		if got := <-done; got != 200 {
			t.Fatal(got)
		}
		if got, _ := post(t, rig, body, nil); got != 200 {
			t.Fatalf("after the first copy: HTTP %d", got)
		}
	})
}

// A 401 with a webhook_* challenge ends the delivery at once, its code in
// the error (security.mdx: terminal for the delivery, never replayed).
func TestSenderStopsAtAChallenge(t *testing.T) {
	rig := newSignedRig(t, webhook.ReceiverOptions{HMAC: mustHMAC(t)}) // registered for HMAC
	err := testSender(webhook.SenderOptions{}).Send(t.Context(), webhook.Push{Config: webhook.PushConfig{URL: rig.url()}, Body: completedPayload(t)})
	var de *webhook.DeliveryError
	if !errors.As(err, &de) || de.Attempts != 1 || !de.Permanent || de.Status != 401 || !strings.Contains(err.Error(), "webhook_mode_mismatch") {
		t.Fatalf("Send = %v", err)
	}
}

func mustHMAC(t testing.TB) *webhook.HMAC {
	t.Helper()
	h, err := webhook.NewHMAC([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	return h
}
