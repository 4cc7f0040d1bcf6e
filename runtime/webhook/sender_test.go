package webhook_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/manifest"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// testSender posts to loopback (httptest) with short waits, signing RFC
// 9421 posts with testSigner's key unless o has a Signer.
func testSender(o webhook.SenderOptions) *webhook.Sender {
	o.Policy = untrusted.PushURLPolicy{AllowLoopback: true}
	if o.Signer == nil {
		o.Signer = testKeys.signer
	}
	if o.Retry.InitialBackoff == 0 {
		o.Retry.InitialBackoff = time.Millisecond
	}
	if o.Retry.MaxBackoff == 0 {
		o.Retry.MaxBackoff = 5 * time.Millisecond
	}
	return webhook.NewSender(o)
}

func completedPayload(t *testing.T) []byte {
	t.Helper()
	body, err := webhook.MCPPayload{
		IdempotencyKey: webhook.NewEventKey(),
		OperationID:    "op_1",
		TaskID:         "task_1",
		TaskType:       "create_thing",
		Protocol:       "media-buy",
		Status:         task.Completed,
		Timestamp:      time.Date(2027, 1, 15, 8, 0, 0, 0, time.UTC),
		Result:         []byte(`{ "thing": {"thing_id": "th_1"} }`),
	}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// A receiver that fails twice, then succeeds: the sender retries, each
// attempt signed afresh, and the real Receiver verifies the signature and
// hands over the typed result once.
func TestSenderRetriesUntilTheReceiverAccepts(t *testing.T) {
	verifier, err := webhook.NewHMAC([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	rc := webhook.NewReceiver(manifest.Spec(), webhook.ReceiverOptions{HMAC: verifier})
	var got []*thingEvent
	var mu sync.Mutex
	//lint:ignore SA1019 the golden manifest deprecates its one async tool on purpose
	if err := webhook.On(rc, manifest.Tools.CreateThing, func(_ context.Context, ev *thingEvent) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, ev)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var attempts atomic.Int32
	var signatures sync.Map
	mux := http.NewServeMux()
	mux.Handle("POST /hook/{task_type}/{operation_id}", rc)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		signatures.Store(r.Header.Get(webhook.SignatureHeader)+r.Header.Get(webhook.TimestampHeader), true)
		switch attempts.Add(1) {
		case 1:
			http.Error(w, "try later", http.StatusServiceUnavailable)
		case 2:
			http.Error(w, "boom", http.StatusBadGateway)
		default:
			mux.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()
	s := testSender(webhook.SenderOptions{})
	push := webhook.Push{Config: webhook.PushConfig{URL: srv.URL + "/hook/create_thing/op_1", Scheme: webhook.SchemeHMAC, Credentials: testSecret}, Body: completedPayload(t)}
	if err := s.Send(t.Context(), push); err != nil {
		t.Fatal(err)
	}
	if n := attempts.Load(); n != 3 {
		t.Fatalf("%d attempts, want 3", n)
	}
	if len(got) != 1 || got[0].Response == nil || got[0].Response.Thing.ThingID != "th_1" || got[0].Notification.OperationID != "op_1" {
		t.Fatalf("receiver got %+v", got)
	}
}

// hang answers nothing until the client gives up. It reads the body first:
// the server notices a closed connection only once the body is consumed.
func hang(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	<-r.Context().Done()
}

func TestSenderGivesUp(t *testing.T) {
	cases := []struct {
		name      string
		handler   http.HandlerFunc
		opts      webhook.SenderOptions
		attempts  int32
		status    int
		permanent bool
	}{
		{"4xx is not retried", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusUnauthorized) },
			webhook.SenderOptions{}, 1, 401, true},
		{"redirect is not followed", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://169.254.169.254/", http.StatusFound)
		},
			webhook.SenderOptions{}, 1, 302, true},
		{"5xx until the attempts run out", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusInternalServerError) },
			webhook.SenderOptions{Retry: retry.Policy{MaxAttempts: 4}}, 4, 500, false},
		{"429 is retried", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "3600")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		}, webhook.SenderOptions{Retry: retry.Policy{MaxAttempts: 2}}, 2, 429, false},
		{"a Retry-After date is honoured", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", retryAfterClock().Add(time.Hour).Format(http.TimeFormat))
			http.Error(w, "slow down", http.StatusTooManyRequests)
		}, webhook.SenderOptions{Now: retryAfterClock, Retry: retry.Policy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Hour}}, 1, 429, false},
		{"a past Retry-After date is a short wait", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", retryAfterClock().Add(-time.Hour).Format(http.TimeFormat))
			http.Error(w, "slow down", http.StatusServiceUnavailable)
		}, webhook.SenderOptions{Now: retryAfterClock, Retry: retry.Policy{MaxAttempts: 2, InitialBackoff: time.Hour, MaxBackoff: time.Hour}}, 2, 503, false},
		{"timeouts are retried", hang,
			webhook.SenderOptions{AttemptTimeout: 20 * time.Millisecond, Retry: retry.Policy{MaxAttempts: 3}}, 3, 0, false},
		{"total time bounds the attempts", hang,
			webhook.SenderOptions{AttemptTimeout: 30 * time.Millisecond, Retry: retry.Policy{MaxAttempts: 1000, MaxElapsed: 100 * time.Millisecond}}, -1, 0, false},
		{"a wait past the total time is not waited", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusBadGateway) },
			webhook.SenderOptions{Retry: retry.Policy{MaxAttempts: 5, InitialBackoff: time.Hour, MaxBackoff: time.Hour}}, 1, 502, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				c.handler(w, r)
			}))
			defer srv.Close()
			err := testSender(c.opts).Send(t.Context(), webhook.Push{Config: webhook.PushConfig{URL: srv.URL + "/hook"}, Body: completedPayload(t)})
			var de *webhook.DeliveryError
			if !errors.As(err, &de) {
				t.Fatalf("Send = %v, want a *DeliveryError", err)
			}
			// An attempt that times out may end before the server's handler
			// runs, so the server can see one fewer than were made (only then).
			seen, made := n.Load(), int32(de.Attempts)
			if de.Status != c.status || de.Permanent != c.permanent || seen > made || (c.status != 0 && seen != made) || seen < made-1 {
				t.Fatalf("%v: status %d permanent %v attempts %d (server saw %d)", err, de.Status, de.Permanent, de.Attempts, seen)
			}
			if c.attempts >= 0 && made != c.attempts {
				t.Fatalf("%d attempts, want %d", made, c.attempts)
			}
			// MaxElapsed, not MaxAttempts, ends it: at most 100ms/30ms+1
			// attempts (a loaded machine makes fewer, never more).
			if c.attempts < 0 && (made < 1 || made > 5) {
				t.Fatalf("%d attempts within 100ms of 30ms each", made)
			}
		})
	}
}

// The caller's context ends a delivery waiting to retry: the error says
// so and keeps the last failure.
func TestSenderStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	// The caller gives up once the first answer is in.
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := srv.Client().Transport.RoundTrip(r)
		cancel()
		return resp, err
	})}
	s := testSender(webhook.SenderOptions{Client: client, Retry: retry.Policy{InitialBackoff: time.Minute, MaxBackoff: time.Minute}})
	err := s.Send(ctx, webhook.Push{Config: webhook.PushConfig{URL: srv.URL + "/hook"}, Body: completedPayload(t)})
	var de *webhook.DeliveryError
	if !errors.As(err, &de) || de.Attempts != 1 || de.Status != 503 || de.Permanent ||
		!errors.Is(err, context.Canceled) || !errors.Is(err, webhook.ErrRejectedByReceiver) {
		t.Fatalf("Send = %v (%+v)", err, de)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Nothing is posted where the URL check or the secret forbids it.
func TestSenderRefusesBeforePosting(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer srv.Close()
	body := completedPayload(t)
	cases := []struct {
		name string
		s    *webhook.Sender
		cfg  webhook.PushConfig
		body []byte
		want error
	}{
		{"loopback in production", webhook.NewSender(webhook.SenderOptions{Signer: testKeys.signer}), webhook.PushConfig{URL: srv.URL}, body, untrusted.ErrURLScheme},
		{"https loopback in production", webhook.NewSender(webhook.SenderOptions{Signer: testKeys.signer}), webhook.PushConfig{URL: strings.Replace(srv.URL, "http:", "https:", 1)}, body, untrusted.ErrURLInternal},
		{"no signer for an RFC 9421 post", webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}}), webhook.PushConfig{URL: srv.URL}, body, webhook.ErrNoSigner},
		{"a request-profile signer", testSender(webhook.SenderOptions{Signer: testKeys.requestSigner}), webhook.PushConfig{URL: srv.URL}, body, nil},
		{"metadata address", testSender(webhook.SenderOptions{}), webhook.PushConfig{URL: "http://169.254.169.254/latest"}, body, untrusted.ErrURLInternal},
		{"weak secret", testSender(webhook.SenderOptions{}), webhook.PushConfig{URL: srv.URL, Scheme: webhook.SchemeHMAC, Credentials: strings.Repeat("ab", 20)}, body, webhook.ErrSecretWeak},
		{"duplicate keys", testSender(webhook.SenderOptions{}), webhook.PushConfig{URL: srv.URL, Scheme: webhook.SchemeHMAC, Credentials: testSecret}, []byte(`{"a":1,"a":2}`), webhook.ErrDuplicateKeyInput},
		{"unknown scheme", testSender(webhook.SenderOptions{}), webhook.PushConfig{URL: srv.URL, Scheme: "Basic", Credentials: testSecret}, body, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.s.Send(t.Context(), webhook.Push{Config: c.cfg, Body: c.body})
			var de *webhook.DeliveryError
			if !errors.As(err, &de) || !de.Permanent || de.Attempts != 0 || (c.want != nil && !errors.Is(err, c.want)) {
				t.Fatalf("Send = %v, want a permanent refusal wrapping %v", err, c.want)
			}
		})
	}
	if n.Load() != 0 {
		t.Fatalf("%d posts made", n.Load())
	}
}

func TestSenderBearerAndToken(t *testing.T) {
	var auth, token, sig string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, token, sig = r.Header.Get("Authorization"), r.Header.Get(webhook.A2ATokenHeader), r.Header.Get(webhook.SignatureHeader)
	}))
	defer srv.Close()
	cfg := webhook.PushConfig{URL: srv.URL, Scheme: webhook.SchemeBearer, Credentials: "bearer-0123456789abcdef0123456789abcdef", Token: "tok-0123456789abcdef"}
	if err := testSender(webhook.SenderOptions{}).Send(t.Context(), webhook.Push{Config: cfg, Body: completedPayload(t)}); err != nil {
		t.Fatal(err)
	}
	if auth != "Bearer "+cfg.Credentials || token != cfg.Token || sig != "" {
		t.Fatalf("Authorization %q, token %q, signature %q", auth, token, sig)
	}
}

func TestMCPPayloadEncode(t *testing.T) {
	body := completedPayload(t)
	want := `{"idempotency_key":"whk_","operation_id":"op_1","task_id":"task_1","task_type":"create_thing","protocol":"media-buy","status":"completed","timestamp":"2027-01-15T08:00:00Z","result":{"thing":{"thing_id":"th_1"}}}`
	key := string(body[len(`{"idempotency_key":"whk_`) : len(`{"idempotency_key":"whk_`)+26])
	if got := strings.Replace(string(body), key, "", 1); got != want {
		t.Fatalf("encoded\n%s\nwant\n%s", got, want)
	}
	for _, p := range []webhook.MCPPayload{
		{TaskType: "x", Status: task.Completed, IdempotencyKey: "k"},
		{TaskID: "t", Status: task.Completed, IdempotencyKey: "k"},
		{TaskID: "t", TaskType: "x", Status: "done", IdempotencyKey: "k"},
		{TaskID: "t", TaskType: "x", Status: task.Completed},
		{TaskID: "t", TaskType: "x", Status: task.Completed, IdempotencyKey: "k", Result: []byte(`[1]`)},
		{TaskID: "t", TaskType: "x", Status: task.Completed, IdempotencyKey: "k", Result: []byte(`{"a":1,"a":1}`)},
	} {
		if _, err := p.Encode(); err == nil {
			t.Errorf("Encode(%+v) accepted", p)
		}
	}
}

func TestParsePushConfig(t *testing.T) {
	cases := []struct {
		in   string
		want webhook.PushConfig
		err  string
	}{
		{`{"url":"https://b.example/h","operation_id":"op","token":"tok-0123456789abcdef","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + testSecret + `"}}`,
			webhook.PushConfig{URL: "https://b.example/h", OperationID: "op", Token: "tok-0123456789abcdef", Scheme: webhook.SchemeHMAC, Credentials: testSecret}, ""},
		{`{"url":"https://b.example/h"}`, webhook.PushConfig{URL: "https://b.example/h"}, ""},
		{`{"url":"https://b.example/h","authentication":{"schemes":["Bearer"],"credentials":"abc"}}`, webhook.PushConfig{URL: "https://b.example/h", Scheme: "Bearer", Credentials: "abc"}, ""},
		{`{}`, webhook.PushConfig{}, "no url"},
		{`{"url":5}`, webhook.PushConfig{}, "/url: want a string"},
		{`{"url":"u","authentication":{"schemes":["Basic"],"credentials":"x"}}`, webhook.PushConfig{}, "want one of"},
		{`{"url":"u","authentication":{"schemes":["Bearer","HMAC-SHA256"],"credentials":"x"}}`, webhook.PushConfig{}, "want one of"},
		{`{"url":"u","authentication":{"schemes":["Bearer"]}}`, webhook.PushConfig{}, "credentials"},
		{`{"url":"u","url":"v"}`, webhook.PushConfig{}, "duplicate key"},
		{`[]`, webhook.PushConfig{}, "not an object"},
	}
	for _, c := range cases {
		got, err := webhook.ParsePushConfig([]byte(c.in))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v", c.in, got, err)
		}
	}
}

func FuzzParsePushConfig(f *testing.F) {
	f.Add([]byte(`{"url":"https://b.example/h","operation_id":"op","authentication":{"schemes":["HMAC-SHA256"],"credentials":"0123456789abcdef0123456789abcdef"}}`))
	f.Add([]byte(`{"url":"u","authentication":{"schemes":["Bearer"],"credentials":"x"},"url":"v"}`))
	s := webhook.NewSender(webhook.SenderOptions{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		cfg, err := webhook.ParsePushConfig(raw)
		if err != nil {
			return
		}
		if cfg.URL == "" || (cfg.Scheme != "" && cfg.Credentials == "") {
			t.Fatalf("accepted %q as %+v", raw, cfg)
		}
		_ = s.Check(cfg)
	})
}

// retryAfterClock is the sender's clock in the Retry-After date cases.
func retryAfterClock() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) }

// A LoopbackOnly sender accepts a public URL (the policy allows it) but
// refuses to dial it before any DNS lookup, once, and still posts to
// loopback.
func TestSenderLoopbackOnly(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer srv.Close()
	s := testSender(webhook.SenderOptions{LoopbackOnly: true})
	if err := s.Send(t.Context(), webhook.Push{Config: webhook.PushConfig{URL: srv.URL}, Body: completedPayload(t)}); err != nil || n.Load() != 1 {
		t.Fatalf("loopback post: %v, %d posts; want one", err, n.Load())
	}
	public := webhook.PushConfig{URL: "https://buyer.example/webhooks/adcp"}
	if err := s.Check(public); err != nil {
		t.Fatalf("Check(%s) = %v; the policy allows it", public.URL, err)
	}
	err := s.Send(t.Context(), webhook.Push{Config: public, Body: completedPayload(t)})
	var de *webhook.DeliveryError
	if !errors.As(err, &de) || !de.Permanent || de.Attempts != 1 || !strings.Contains(err.Error(), "not a loopback host") {
		t.Fatalf("Send to a public host = %v; want one permanent refusal of a non-loopback host", err)
	}
}
