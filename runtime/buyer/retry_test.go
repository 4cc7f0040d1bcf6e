package buyer_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/retry"
)

// fakeSleep records the waits of a retry policy without waiting.
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (f *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.mu.Unlock()
	return ctx.Err()
}

func (f *fakeSleep) policy() retry.Policy { return retry.Policy{Sleep: f.sleep, Jitter: -1} }

// A transient error, then success: the call is retried after the seller's
// retry_after, and both requests carry the same idempotency key, byte for
// byte, a fresh UUID v4.
func TestTransientThenSuccess(t *testing.T) {
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			var sleeps fakeSleep
			r := newRig(t, f, scripted(map[string][]answer{"create_thing": {
				{adcpErr: `{"code":"SERVICE_UNAVAILABLE","message":"busy","retry_after":3}`},
				{payload: `{"thing":{"thing_id":"t-1","name":"x"}}`},
			}}), buyer.WithRetryPolicy(sleeps.policy()))
			res, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Response.Thing.ThingID != "t-1" {
				t.Errorf("%+v", res.Response)
			}
			calls := r.calls()
			if len(calls) != 2 {
				t.Fatalf("%d calls, want 2", len(calls))
			}
			k1, k2 := argMember(t, calls[0].Args, "idempotency_key"), argMember(t, calls[1].Args, "idempotency_key")
			if k1 == "" || k1 != k2 {
				t.Errorf("idempotency keys %q then %q", k1, k2)
			}
			if err := buyer.CheckIdempotencyKey(k1); err != nil || len(k1) != 36 || k1[14] != '4' {
				t.Errorf("key %q is no UUID v4: %v", k1, err)
			}
			if string(calls[0].Args) != string(calls[1].Args) {
				t.Errorf("the retry sent other bytes:\n%s\n%s", calls[0].Args, calls[1].Args)
			}
			if len(sleeps.waits) != 1 || sleeps.waits[0] != 3*time.Second {
				t.Errorf("waits %v, want [3s]", sleeps.waits)
			}
		})
	}
}

// The caller's key is used as is; a different one in the request is an
// error before anything is sent; a bad key too.
func TestIdempotencyKeyOption(t *testing.T) {
	r := newRig(t, mcpJSON, scripted(map[string][]answer{"create_thing": {{payload: `{"thing":{"thing_id":"t","name":"x"}}`}}}))
	ctx := t.Context()
	const key = "order-2026-0001-abcdef"
	if _, err := buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x"}, buyer.WithIdempotencyKey(key)); err != nil {
		t.Fatal(err)
	}
	if _, err := buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x", IdempotencyKey: key}); err != nil {
		t.Fatal(err)
	}
	calls := r.calls()
	if len(calls) != 2 || argMember(t, calls[0].Args, "idempotency_key") != key || argMember(t, calls[1].Args, "idempotency_key") != key {
		t.Fatalf("calls %+v", calls)
	}
	for _, tc := range []struct {
		req *tinyadcp.CreateThingRequest
		opt []buyer.CallOption
	}{
		{&tinyadcp.CreateThingRequest{Name: "x", IdempotencyKey: key}, []buyer.CallOption{buyer.WithIdempotencyKey(key + "-other")}},
		{&tinyadcp.CreateThingRequest{Name: "x", IdempotencyKey: "short"}, nil},
		{&tinyadcp.CreateThingRequest{Name: "x"}, []buyer.CallOption{buyer.WithIdempotencyKey("has spaces in it, too many")}},
	} {
		if _, err := buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, tc.req, tc.opt...); err == nil {
			t.Errorf("%+v %d options: no error", tc.req, len(tc.opt))
		}
	}
	if n := len(r.calls()); n != 2 {
		t.Errorf("refused requests reached the seller: %d calls", n)
	}
}

// A mutating call without an idempotency key is never retried, even on a
// transient error; a read is.
func TestNoRetryWithoutKey(t *testing.T) {
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			var sleeps fakeSleep
			busy := answer{adcpErr: `{"code":"SERVICE_UNAVAILABLE","message":"busy"}`}
			r := newRig(t, f, scripted(map[string][]answer{
				"delete_thing": {busy, {payload: `{"deleted":true}`}},
				"get_things":   {busy, {payload: thingsPayload}},
			}), buyer.WithRetryPolicy(sleeps.policy()))
			_, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.DeleteThing, &tinyadcp.DeleteThingRequest{ThingID: "t"})
			var ae *adcperr.Error
			if !errors.As(err, &ae) || ae.Code != "SERVICE_UNAVAILABLE" {
				t.Fatalf("got %v", err)
			}
			if _, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{}); err != nil {
				t.Fatal(err)
			}
			n := map[string]int{}
			for _, c := range r.calls() {
				n[c.Tool]++
			}
			if n["delete_thing"] != 1 || n["get_things"] != 2 {
				t.Errorf("calls %v: want delete_thing once, get_things twice", n)
			}
		})
	}
}

// The retry ceiling: a seller that stays busy gets the policy's attempts,
// then the call fails with retry's ExhaustedError around the AdCP error.
func TestRetryCeiling(t *testing.T) {
	var sleeps fakeSleep
	r := newRig(t, mcpSSE, scripted(map[string][]answer{"get_things": {{adcpErr: `{"code":"RATE_LIMITED","message":"no","retry_after":5}`}}}))
	p := sleeps.policy()
	p.MaxAttempts = 4
	_, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{}, buyer.CallRetryPolicy(p))
	var ex *retry.ExhaustedError
	var ae *adcperr.Error
	if !errors.As(err, &ex) || !errors.As(err, &ae) || ex.Attempts != 4 {
		t.Fatalf("got %v", err)
	}
	if n := len(r.calls()); n != 4 {
		t.Errorf("%d calls, want 4", n)
	}
	if len(sleeps.waits) != 3 || sleeps.waits[0] != 5*time.Second {
		t.Errorf("waits %v", sleeps.waits)
	}
	// The time ceiling: a retry_after past MaxElapsed stops at once.
	p = sleeps.policy()
	p.MaxElapsed = 2 * time.Second
	_, err = buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{}, buyer.CallRetryPolicy(p))
	if !errors.As(err, &ex) || ex.NextWait != 5*time.Second {
		t.Fatalf("got %v", err)
	}
}

// failingFirst answers the first POST carrying a tools/call with HTTP 503
// and no JSON-RPC body, as a proxy in front of a seller would.
type failingFirst struct {
	base   http.RoundTripper
	mu     sync.Mutex
	failed bool
}

func (f *failingFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	fail := !f.failed && r.Method == http.MethodPost && isToolCall(r)
	if fail {
		f.failed = true
	}
	f.mu.Unlock()
	if fail {
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable",
			Header: http.Header{"Content-Type": {"text/plain"}}, Body: http.NoBody, Request: r}, nil
	}
	return f.base.RoundTrip(r)
}

func isToolCall(r *http.Request) bool {
	if r.GetBody == nil {
		return false
	}
	body, err := r.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	b, _ := io.ReadAll(body)
	return bytes.Contains(b, []byte(`"method":"tools/call"`))
}

// A transport failure: retried when safe (a read, or a call with a key),
// surfaced as a *TransportError otherwise.
func TestTransportFailureRetry(t *testing.T) {
	var sleeps fakeSleep
	ff := &failingFirst{base: &http.Transport{}}
	r := newRigWith(t, mcpJSON, scripted(map[string][]answer{
		"create_thing": {{payload: `{"thing":{"thing_id":"t","name":"x"}}`}},
		"delete_thing": {{payload: `{"deleted":true}`}},
	}), &http.Client{Transport: ff}, buyer.WithRetryPolicy(sleeps.policy()))
	if _, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	if n := len(r.calls()); n != 1 || len(sleeps.waits) != 1 {
		t.Fatalf("%d calls reached the seller, %d waits; want 1 and 1", n, len(sleeps.waits))
	}
	ff.mu.Lock()
	ff.failed = false
	ff.mu.Unlock()
	_, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.DeleteThing, &tinyadcp.DeleteThingRequest{ThingID: "t"})
	var te *buyer.TransportError
	if !errors.As(err, &te) || te.StatusCode != http.StatusServiceUnavailable || !te.Sent {
		t.Fatalf("got %v (%+v)", err, te)
	}
	if n := len(r.calls()); n != 1 {
		t.Errorf("the keyless delete was retried: %d calls", n)
	}
}

// A seller that cannot be reached (the connection is refused): the
// request never left, so even a keyless mutating call is retried, and the
// failure is a TransportError that says so.
func TestUnreachableSeller(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	var dead atomic.Bool
	tr := &http.Transport{DisableKeepAlives: true, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dead.Load() {
			addr = closed
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	var sleeps fakeSleep
	r := newRigWith(t, mcpJSON, scripted(map[string][]answer{"delete_thing": {{payload: `{"deleted":true}`}}}),
		&http.Client{Transport: tr}, buyer.WithRetryPolicy(sleeps.policy()))
	dead.Store(true)
	_, err = buyer.Call(t.Context(), r.client, tinyadcp.Tools.DeleteThing, &tinyadcp.DeleteThingRequest{ThingID: "t"})
	var te *buyer.TransportError
	var ex *retry.ExhaustedError
	if !errors.As(err, &te) || te.Sent || !errors.As(err, &ex) || ex.Attempts != 3 {
		t.Fatalf("got %v", err)
	}
	if len(sleeps.waits) != 2 {
		t.Errorf("waits %v", sleeps.waits)
	}
}
