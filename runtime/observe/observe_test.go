package observe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// recorder is an Observer that keeps every operation, its parent (the
// operation whose context it started in) and, for a served call, the
// operation of the peer whose trace context it received. The trace
// context it injects is "op-<n>", n numbering operations from 1.
type recorder struct {
	mu  sync.Mutex
	ops []*record
}

type record struct {
	id, parent int
	remote     string // the peer's traceparent (ServeCall)
	op         *observe.Op
	ended      bool
}

type recKey struct{}

func (r *recorder) Start(ctx context.Context, op *observe.Op) (context.Context, func()) {
	parent, _ := ctx.Value(recKey{}).(int)
	r.mu.Lock()
	rec := &record{id: len(r.ops) + 1, parent: parent, op: op}
	if op.Peer != nil {
		// A trace context received continues that operation, unless the
		// context continues one already.
		rec.remote = op.Peer("traceparent")
		if n, err := strconv.Atoi(strings.TrimPrefix(rec.remote, "op-")); err == nil && parent == 0 {
			rec.parent = n
		}
	}
	r.ops = append(r.ops, rec)
	r.mu.Unlock()
	return context.WithValue(ctx, recKey{}, rec.id), func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if rec.ended {
			panic(fmt.Sprintf("operation %d (%v) ended twice", rec.id, op.Kind))
		}
		rec.ended = true
	}
}

func (r *recorder) Inject(ctx context.Context, set func(key, value string)) {
	if id, ok := ctx.Value(recKey{}).(int); ok {
		set("traceparent", "op-"+strconv.Itoa(id))
	}
}

// find returns the ended operations of kind, in the order they started.
func (r *recorder) find(kind observe.OpKind) []*record {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*record
	for _, rec := range r.ops {
		if rec.op.Kind == kind && rec.ended {
			out = append(out, rec)
		}
	}
	return out
}

func (r *recorder) byID(id int) *record {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id < 1 || id > len(r.ops) {
		return nil
	}
	return r.ops[id-1]
}

// within reports whether rec descends from the operation ancestor.
func (r *recorder) within(rec *record, ancestor int) bool {
	for rec != nil && rec.parent != 0 {
		if rec.parent == ancestor {
			return true
		}
		rec = r.byID(rec.parent)
	}
	return false
}

const (
	apiKey     = "api-key-never-in-telemetry-0123"
	bearer     = "webhook-bearer-never-in-telemetry-0123456789"
	idemKey    = "idem-key-never-in-telemetry-01234567"
	payloadTag = "payload-never-in-telemetry"
)

// observedSeller is a seller of the test spec with every piece observed:
// the idempotency layer, the task manager, the webhook Sender, the store.
// create_media_buy answers at once, and NotifySyncResults posts the answer
// to the request's webhook.
func observedSeller(t *testing.T, rec *recorder) (*httptest.Server, *sellertask.Manager) {
	t.Helper()
	store := sellerstore.NewMemory(nil)
	sender := webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}, Observer: rec,
		Retry: retry.Policy{InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}})
	tasks := sellertask.New(adcpt.Spec(), sellertask.Options{Store: store, Sender: sender, Observer: rec})
	layer := idempotency.New(adcpt.Spec(), store, idempotency.Options{Observer: rec})
	srv, err := seller.New(adcpt.Spec(), seller.Options{
		Schemas:       sellertest.Tree(t),
		Authenticator: seller.APIKeys("test", map[string]string{apiKey: "buyer"}),
		Tasks:         tasks,
		//lint:ignore SA1019 a synchronous answer posted is the shortest path through every observed piece
		Middleware: []seller.Middleware{layer.Middleware(), tasks.NotifySyncResults()},
		Observer:   rec,
	})
	if err != nil {
		t.Fatal(err)
	}
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(_ context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		r := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_1"})
		return &adcpt.CreateMediaBuyResult{Message: "Created.", Response: &r}, nil
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := tasks.Close(ctx); err != nil {
			t.Errorf("deliveries still running: %v", err)
		}
	})
	mcpH, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	mux.Handle("/mcp", mcpH)
	a2aOpts := a2aserver.Options{URL: hs.URL + "/a2a"}
	mux.Handle("/a2a", a2aserver.NewHandler(srv, a2aOpts))
	mux.Handle("GET "+a2aserver.CardPath, a2aserver.NewCardHandler(srv, a2aOpts))
	return hs, tasks
}

type withKey struct{ base http.RoundTripper }

func (k withKey) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+apiKey)
	return k.base.RoundTrip(r)
}

// connect is the observed typed buyer over transport, with the headers of
// each request it sends.
func connect(t *testing.T, rec *recorder, url, transport string, sent func(http.Header)) *buyer.Client {
	t.Helper()
	hc := &http.Client{Transport: withKey{roundTrip(func(r *http.Request) (*http.Response, error) {
		if r.Method == http.MethodPost {
			sent(r.Header.Clone())
		}
		return http.DefaultTransport.RoundTrip(r)
	})}}
	var tr buyer.Transport
	switch transport {
	case "mcp":
		s, err := mcpclient.ConnectHTTP(t.Context(), url+"/mcp", hc, mcpclient.ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		tr = s
	case "a2a":
		c, err := a2aclient.Dial(t.Context(), url, hc)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		tr = c
	}
	c, err := buyer.New(adcpt.Spec(), tr, buyer.WithObserver(rec), buyer.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A buyer's call and the seller's work on it are reported as one tree of
// operations, over MCP and A2A: the buyer's SendCall injects its trace
// context (HTTP headers, and params._meta over MCP), the seller's
// ServeCall reads it back, and the validation, the idempotency layer (with
// its store calls), the handler, the task recorded for the webhook, its
// delivery and the post run inside the served call; the webhook post
// carries the trace context on to the receiver. A replay is reported as
// one. No operation holds a credential, a key or a payload.
func TestOperationsOfOneCall(t *testing.T) {
	for _, transport := range []string{"mcp", "a2a"} {
		t.Run(transport, func(t *testing.T) {
			rec := &recorder{}
			hs, tasks := observedSeller(t, rec)
			var mu sync.Mutex
			var sent []http.Header
			var delivered http.Header
			got := make(chan struct{}, 1)
			receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				delivered = r.Header.Clone()
				mu.Unlock()
				w.WriteHeader(http.StatusNoContent)
				got <- struct{}{}
			}))
			t.Cleanup(receiver.Close)
			c := connect(t, rec, hs.URL, transport, func(h http.Header) { mu.Lock(); sent = append(sent, h); mu.Unlock() })

			req := &adcpt.CreateMediaBuyRequest{IdempotencyKey: idemKey, PoNumber: new(payloadTag),
				Packages: []adcpt.CreateMediaBuyRequestPackage{{ProductID: "ctv", Budget: 5000}},
				PushNotificationConfig: &adcpt.CreateMediaBuyRequestPushNotificationConfig{URL: receiver.URL,
					AdditionalProperties: map[string]json.RawMessage{"authentication": json.RawMessage(`{"schemes":["Bearer"],"credentials":"` + bearer + `"}`)}}}
			res, err := buyer.Call(t.Context(), c, adcpt.Tools.CreateMediaBuy, req)
			if err != nil || res.Status != task.Completed {
				t.Fatalf("call: %v %+v", err, res)
			}
			select {
			case <-got:
			case <-time.After(30 * time.Second):
				t.Fatal("no webhook")
			}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			if _, err := buyer.Call(ctx, c, adcpt.Tools.CreateMediaBuy, req); err != nil {
				t.Fatalf("replay: %v", err)
			}
			if err := tasks.Wait(ctx); err != nil { // the delivery ends after the receiver answered
				t.Fatal(err)
			}

			sends := rec.find(observe.SendCall)
			serves := rec.find(observe.ServeCall)
			if len(sends) != 2 || len(serves) != 2 {
				t.Fatalf("%d SendCall and %d ServeCall operations, want 2 of each", len(sends), len(serves))
			}
			first, firstServed := sends[0], serves[0]
			want := observe.Op{Kind: observe.SendCall, Tool: "create_media_buy", Transport: transport, Release: adcpt.Spec().Version(), Status: "completed", Attempts: 1}
			if !sameOp(*first.op, want) {
				t.Errorf("SendCall %+v, want %+v", *first.op, want)
			}
			want = observe.Op{Kind: observe.ServeCall, Tool: "create_media_buy", Transport: transport, Release: adcpt.Spec().Version(), Status: "completed"}
			if !sameOp(*firstServed.op, want) {
				t.Errorf("ServeCall %+v, want %+v", *firstServed.op, want)
			}
			if firstServed.remote != "op-"+strconv.Itoa(first.id) {
				t.Errorf("the served call's peer trace context is %q, want op-%d", firstServed.remote, first.id)
			}
			mu.Lock()
			calls := 0
			for _, h := range sent {
				// Over MCP, the session's own requests (initialize,
				// discovery) are no tool calls.
				if m := h.Get("Mcp-Method"); m != "" && m != "tools/call" {
					continue
				}
				calls++
				if h.Get("traceparent") == "" {
					t.Errorf("a call went without the traceparent header: %v", h)
				}
			}
			if calls < 2 {
				t.Errorf("%d calls sent, want 2", calls)
			}
			if g, w := delivered.Get("traceparent"), "op-"; !strings.HasPrefix(g, w) {
				t.Errorf("the webhook's traceparent is %q", g)
			}
			webhookParent := delivered.Get("traceparent")
			mu.Unlock()

			inside := func(kind observe.OpKind, check func(*observe.Op) bool) *record {
				t.Helper()
				for _, r := range rec.find(kind) {
					if rec.within(r, firstServed.id) && (check == nil || check(r.op)) {
						return r
					}
				}
				t.Errorf("no %v operation inside the served call", kind)
				return nil
			}
			inside(observe.ValidateRequest, func(op *observe.Op) bool { return op.Tool == "create_media_buy" && op.Code == "" })
			idem := inside(observe.ApplyIdempotency, func(op *observe.Op) bool { return op.Outcome == "claimed" && op.Status == "completed" })
			if h := inside(observe.RunHandler, func(op *observe.Op) bool { return op.Status == "completed" }); h != nil && idem != nil && !rec.within(h, idem.id) {
				t.Error("the handler did not run inside the idempotency layer")
			}
			inside(observe.CallStore, func(op *observe.Op) bool { return op.Operation == "claim" && op.Outcome == "claimed" })
			inside(observe.CallStore, func(op *observe.Op) bool { return op.Operation == "complete" && op.Err == nil })
			inside(observe.CreateTask, func(op *observe.Op) bool { return op.Tool == "create_media_buy" && op.Err == nil })
			update := inside(observe.UpdateTask, func(op *observe.Op) bool { return op.Status == "completed" })
			enqueued := inside(observe.EnqueueWebhook, func(op *observe.Op) bool { return op.Status == "completed" && op.Err == nil })
			if update != nil && enqueued != nil && !rec.within(enqueued, update.id) {
				t.Error("the webhook was not enqueued inside the task's update")
			}
			// Posted by the outbox's dispatcher, continuing the trace
			// context kept with the notification.
			d := inside(observe.DeliverWebhook, func(op *observe.Op) bool {
				return op.Outcome == "delivered" && op.Status == "completed" && !op.Since.IsZero() && op.Err == nil && op.Attempts == 1
			})
			if d != nil && enqueued != nil && d.remote != "op-"+strconv.Itoa(enqueued.id) {
				t.Errorf("the delivery continues %q, want the enqueue's op-%d", d.remote, enqueued.id)
			}
			post := inside(observe.PostWebhook, func(op *observe.Op) bool {
				return op.Attempt == 1 && op.HTTPStatus == http.StatusNoContent && op.Host == strings.TrimPrefix(receiver.URL, "http://")
			})
			if post != nil && d != nil && !rec.within(post, d.id) {
				t.Error("the post is not inside its delivery")
			}
			if post != nil && webhookParent != "op-"+strconv.Itoa(post.id) {
				t.Errorf("the webhook carried %q, want the post's op-%d", webhookParent, post.id)
			}

			replay := serves[1]
			if !replay.op.Replayed || !sends[1].op.Replayed {
				t.Errorf("the replay is not reported as one: served %+v, sent %+v", *replay.op, *sends[1].op)
			}
			found := false
			for _, r := range rec.find(observe.ApplyIdempotency) {
				found = found || rec.within(r, replay.id) && r.op.Outcome == "replay"
			}
			if !found {
				t.Error("no idempotency replay inside the replayed call")
			}
			for _, r := range rec.find(observe.DeliverWebhook) {
				if rec.within(r, replay.id) {
					t.Error("the replay posted a webhook")
				}
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			for _, r := range rec.ops {
				if !r.ended {
					t.Errorf("operation %d (%v) never ended", r.id, r.op.Kind)
				}
				if s := fmt.Sprintf("%+v", *r.op); strings.Contains(s, apiKey) || strings.Contains(s, bearer) ||
					strings.Contains(s, idemKey) || strings.Contains(s, payloadTag) {
					t.Errorf("operation %v holds a secret or a payload: %s", r.op.Kind, s)
				}
			}
		})
	}
}

// sameOp compares the fields want sets (and Kind), ignoring the others.
func sameOp(got, want observe.Op) bool {
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range w.NumField() {
		if f := w.Field(i); !f.IsZero() && !reflect.DeepEqual(g.Field(i).Interface(), f.Interface()) {
			return false
		}
	}
	return true
}

// PeerOf reads propagation fields, _meta first, and nothing else: not a
// credential, whatever its spelling.
func TestPeerOf(t *testing.T) {
	h := http.Header{}
	h.Set("Traceparent", "from-header")
	h.Set("Tracestate", "vendor=1")
	h.Set("Authorization", "Bearer secret")
	h.Set("Signature", "sig1=:abc:")
	h.Set("X-B3-TraceId", "b3-trace")
	meta := map[string]any{"traceparent": "from-meta", "authorization": "Bearer secret", "baggage": 7}
	p := observe.PeerOf(meta, h)
	for key, want := range map[string]string{
		"traceparent": "from-meta", "Tracestate": "vendor=1", "x-b3-traceid": "b3-trace", "baggage": "",
		"authorization": "", "Authorization": "", "signature": "", "cookie": "",
	} {
		if got := p(key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if observe.PeerOf(nil, nil) != nil {
		t.Error("PeerOf(nil, nil) is not nil")
	}
	if got := observe.PeerOf(nil, h)("traceparent"); got != "from-header" {
		t.Errorf("header only: %q", got)
	}
}
