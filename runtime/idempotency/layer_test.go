package idempotency_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellerrig"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/storetest"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// The tests serve create_media_buy of the seller test spec (3.90.0-test,
// whose error codes are those of AdCP 3.0: IDEMPOTENCY_CONFLICT, no
// IDEMPOTENCY_IN_FLIGHT or IDEMPOTENCY_EXPIRED) and of the same spec with
// the codes AdCP 3.1 adds.

// withAdCP31Codes is the test spec with IDEMPOTENCY_IN_FLIGHT and
// IDEMPOTENCY_EXPIRED, as AdCP 3.1 lists them.
func withAdCP31Codes() *registry.Spec {
	base := adcpt.Spec()
	return registry.NewSpec(registry.SpecConfig{
		Version: base.Version(),
		Tools:   base.Tools(),
		Codes: append(base.Codes(),
			registry.ErrorCode{Code: "IDEMPOTENCY_IN_FLIGHT", Recovery: registry.Transient},
			registry.ErrorCode{Code: "IDEMPOTENCY_EXPIRED", Recovery: registry.Correctable}),
		UnknownRecovery: base.UnknownRecovery(),
		NewDetails:      base.NewDetails,
		WebhookResults:  base.WebhookResults(),
		NewBySchema:     base.NewBySchema,
	})
}

// rig is a seller whose create_media_buy mints a new media buy id per
// handler run, behind the idempotency layer.
type rig struct {
	srv   *seller.Server
	spec  *registry.Spec
	clock *storetest.FakeClock
	store *sellerstore.Memory
	calls atomic.Int64
	// gate, when set, holds every handler run until it is closed.
	gate chan struct{}
	// failNext makes the next n runs fail (RATE_LIMITED), then succeed.
	failNext atomic.Int64
	// panicNext makes the next run panic.
	panicNext atomic.Bool
}

func newRig(t *testing.T, spec *registry.Spec, opts idempotency.Options, gate chan struct{}) *rig {
	t.Helper()
	r := &rig{spec: spec, clock: storetest.NewFakeClock(storetest.Start), gate: gate}
	r.store = sellerstore.NewMemory(r.clock)
	layer := idempotency.New(spec, r.store, opts)
	srv, err := seller.New(spec, seller.Options{
		Schemas:           sellertest.Tree(t),
		ValidateResponses: true,
		Authenticator:     sellerrig.Authenticator(),
		Middleware:        []seller.Middleware{layer.Middleware()},
		Capabilities:      json.RawMessage(`{"adcp":{"idempotency":` + string(layer.Capabilities()) + `}}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, r.createMediaBuy)
	r.srv = srv
	return r
}

func (r *rig) createMediaBuy(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
	n := r.calls.Add(1)
	if r.gate != nil {
		select {
		case <-r.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if r.panicNext.CompareAndSwap(true, false) {
		panic("handler bug")
	}
	if r.failNext.Add(-1) >= 0 {
		return nil, &adcperr.Error{Code: "RATE_LIMITED", Message: "slow down", RetryAfter: time.Second}
	}
	r.failNext.Store(0)
	if req.PoNumber != nil && strings.HasPrefix(*req.PoNumber, "async") {
		h, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy)
		if err != nil {
			return nil, err
		}
		return &adcpt.CreateMediaBuyResult{Status: task.Submitted, TaskID: h.ID(), Message: "Queued for approval.", Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
	}
	resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: fmt.Sprintf("mb_%d", n)})
	return &adcpt.CreateMediaBuyResult{Message: "Created.", Response: &resp}, nil
}

// call serves one call directly (no transport) as principal.
func (r *rig) call(principal, args string) *seller.Answer {
	return r.srv.Serve(context.Background(), "create_media_buy", &seller.Call{
		Arguments: json.RawMessage(args), Transport: seller.TransportMCP, Principal: seller.Principal{ID: principal}})
}

func buy(key, budget, extra string) string {
	s := `{"idempotency_key":"` + key + `","packages":[{"product_id":"ctv","budget":` + budget + `}]`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

const key1 = "4c1e4a4e-7d1f-4b5e-9a55-0c2b8e3f6a10"

func mediaBuyID(t *testing.T, a *seller.Answer) string {
	t.Helper()
	if a.Error != nil {
		t.Fatalf("error answer %v", a.Error)
	}
	var v struct {
		MediaBuyID string `json:"media_buy_id"`
	}
	if err := json.Unmarshal(a.Body, &v); err != nil {
		t.Fatal(err)
	}
	return v.MediaBuyID
}

func errorCode(a *seller.Answer) string {
	if a.Error == nil {
		return ""
	}
	return a.Error.Code
}

// The sequential contract, step by step as the idempotency storyboard
// walks it.
func TestSequentialContract(t *testing.T) {
	r := newRig(t, withAdCP31Codes(), idempotency.Options{}, nil)
	first := r.call("buyer-a", buy(key1, "5000", `"context":{"correlation_id":"first"}`))
	if id := mediaBuyID(t, first); id != "mb_1" || first.Replayed {
		t.Fatalf("first call: %s replayed=%v", first.Body, first.Replayed)
	}
	// Same key, same request, another context: the stored answer, marked
	// replayed, with this call's context.
	replay := r.call("buyer-a", buy(key1, "5000", `"context":{"correlation_id":"retry"}`))
	// The stored answer is the whole response object, the envelope's
	// members (status, message) included.
	if string(first.Body) != `{"idempotency_key":"`+key1+`","context":{"correlation_id":"first"},"adcp_version":"3.90-test","status":"completed","message":"Created.","media_buy_id":"mb_1"}` {
		t.Fatalf("first call's body: %s", first.Body)
	}
	if !replay.Replayed || replay.Message != "Created." ||
		string(replay.Body) != `{"context":{"correlation_id":"retry"},"replayed":true,"idempotency_key":"`+key1+`","adcp_version":"3.90-test","status":"completed","message":"Created.","media_buy_id":"mb_1"}` {
		t.Fatalf("replay: %s replayed=%v", replay.Body, replay.Replayed)
	}
	// Whitespace and member order do not make another request.
	same := r.call("buyer-a", `{ "packages" : [ {"budget":5000,"product_id":"ctv"} ], "idempotency_key":"`+key1+`" }`)
	if !same.Replayed || string(same.Body) != `{"replayed":true,"idempotency_key":"`+key1+`","adcp_version":"3.90-test","status":"completed","message":"Created.","media_buy_id":"mb_1"}` {
		t.Fatalf("reordered replay: %s replayed=%v", same.Body, same.Replayed)
	}
	// Same key, another request.
	conflict := r.call("buyer-a", buy(key1, "25000", `"context":{"correlation_id":"conflict"}`))
	if errorCode(conflict) != "IDEMPOTENCY_CONFLICT" || conflict.Error.Recovery != registry.Correctable ||
		strings.Contains(conflict.Error.Message, "mb_1") || conflict.Error.Field != "" || string(conflict.Context) != `{"correlation_id":"conflict"}` {
		t.Fatalf("conflict: %+v context %s", conflict.Error, conflict.Context)
	}
	// On the wire: code and message only (no recovery, which buyers derive
	// from the code), the failed payload of a 3.1-or-later release, and the
	// context beside it.
	wireErr := `{"code":"IDEMPOTENCY_CONFLICT","message":"` + conflict.Error.Message + `"}`
	wireObj, err := seller.ErrorObject(conflict)
	if err != nil || string(wireObj) != `{"adcp_error":`+wireErr+`,"status":"failed","errors":[`+wireErr+`],"context":{"correlation_id":"conflict"},"adcp_version":"3.90-test"}` {
		t.Fatalf("conflict on the wire: %s %v", wireObj, err)
	}
	if x := extract.New(withAdCP31Codes()).DetectError([]byte(`{"isError":true,"structuredContent":` + string(wireObj) + `}`)); x.Error == nil || x.Error.Recovery != registry.Correctable {
		t.Fatalf("conflict read back: %+v", x.Error)
	}
	// A fresh key is a new request, even with the same payload.
	if id := mediaBuyID(t, r.call("buyer-a", buy("fresh-key-0000000001", "5000", ""))); id != "mb_2" {
		t.Fatalf("fresh key: %s", id)
	}
	// Past the replay window.
	r.clock.Advance(idempotency.DefaultRetention + time.Second)
	expired := r.call("buyer-a", buy(key1, "5000", ""))
	if errorCode(expired) != "IDEMPOTENCY_EXPIRED" || expired.Error.Recovery != registry.Correctable {
		t.Fatalf("expired: %+v", expired.Error)
	}
	if n := r.calls.Load(); n != 2 {
		t.Fatalf("handler ran %d times, want 2", n)
	}
}

// TestFingerprintLeavesOut: a retry that changes only what the default
// exclusions name replays; any other change, nested ones included, is a
// conflict.
func TestFingerprintLeavesOut(t *testing.T) {
	const push = `"push_notification_config":{"url":"https://buyer.example/w","authentication":{"schemes":["HMAC-SHA256"],"credentials":"%s"}}`
	first := buy(key1, "5000", fmt.Sprintf(push, strings.Repeat("a", 32))+`,"context":{"c":1},"governance_context":"token-1"`)
	for _, tt := range []struct {
		name, retry string
		replay      bool
	}{
		{"the same request", first, true},
		{"another context", buy(key1, "5000", fmt.Sprintf(push, strings.Repeat("a", 32))+`,"context":{"c":2},"governance_context":"token-1"`), true},
		{"no context", buy(key1, "5000", fmt.Sprintf(push, strings.Repeat("a", 32))+`,"governance_context":"token-1"`), true},
		{"a refreshed governance token", buy(key1, "5000", fmt.Sprintf(push, strings.Repeat("a", 32))+`,"context":{"c":1},"governance_context":"token-2"`), true},
		{"a rotated webhook credential", buy(key1, "5000", fmt.Sprintf(push, strings.Repeat("b", 32))+`,"context":{"c":1},"governance_context":"token-1"`), true},
		{"another webhook URL", buy(key1, "5000", strings.Replace(fmt.Sprintf(push, strings.Repeat("a", 32)), "/w", "/v", 1)+`,"context":{"c":1},"governance_context":"token-1"`), false},
		{"other webhook schemes", buy(key1, "5000", strings.Replace(fmt.Sprintf(push, strings.Repeat("a", 32)), "HMAC-SHA256", "Bearer", 1)+`,"context":{"c":1},"governance_context":"token-1"`), false},
		{"another budget", buy(key1, "6000", fmt.Sprintf(push, strings.Repeat("a", 32))+`,"context":{"c":1},"governance_context":"token-1"`), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, withAdCP31Codes(), idempotency.Options{}, nil)
			mediaBuyID(t, r.call("buyer-a", first))
			a := r.call("buyer-a", tt.retry)
			if tt.replay && (a.Error != nil || !a.Replayed) {
				t.Fatalf("want a replay, got %+v (replayed %v)", a.Error, a.Replayed)
			}
			if !tt.replay && errorCode(a) != "IDEMPOTENCY_CONFLICT" {
				t.Fatalf("want IDEMPOTENCY_CONFLICT, got %+v %s", a.Error, a.Body)
			}
		})
	}
}

// Versions without IDEMPOTENCY_EXPIRED (AdCP 3.0 has it, the test spec
// does not) get the nearest code they have.
func TestCodesTheVersionHas(t *testing.T) {
	r := newRig(t, adcpt.Spec(), idempotency.Options{}, nil)
	mediaBuyID(t, r.call("buyer-a", buy(key1, "5000", "")))
	r.clock.Advance(idempotency.DefaultRetention)
	if a := r.call("buyer-a", buy(key1, "5000", "")); errorCode(a) != "IDEMPOTENCY_CONFLICT" {
		t.Fatalf("expired key on a version without IDEMPOTENCY_EXPIRED: %+v", a.Error)
	}
}

// An async answer is replayed with its task id and its message, byte for
// byte but for the replayed flag.
func TestReplaySubmitted(t *testing.T) {
	r := newRig(t, adcpt.Spec(), idempotency.Options{}, nil)
	first := r.call("buyer-a", buy(key1, "5000", `"po_number":"async-1"`))
	if first.Status != task.Submitted || first.TaskID == "" {
		t.Fatalf("first: %s %q", first.Status, first.TaskID)
	}
	again := r.call("buyer-a", buy(key1, "5000", `"po_number":"async-1"`))
	if !again.Replayed || again.Status != task.Submitted || again.TaskID != first.TaskID || again.Message != "Queued for approval." ||
		string(again.Body) != `{"replayed":true,`+string(first.Body[1:]) || !strings.Contains(string(first.Body), `"message":"Queued for approval."`) {
		t.Fatalf("replay: %s %q %q %s, want %q %s", again.Status, again.TaskID, again.Message, again.Body, first.TaskID, first.Body)
	}
	if _, err := r.srv.Tasks().Get(context.Background(), "buyer-a", first.TaskID); err != nil {
		t.Fatalf("the replayed task id does not name a task: %v", err)
	}
}

// Errors are not cached: after an error, a panic, or a response that
// reports failure, the same key runs the handler again.
func TestFailuresAreNotCached(t *testing.T) {
	r := newRig(t, adcpt.Spec(), idempotency.Options{}, nil)
	r.failNext.Store(1)
	if a := r.call("buyer-a", buy(key1, "5000", "")); errorCode(a) != "RATE_LIMITED" {
		t.Fatalf("first: %+v", a.Error)
	}
	if id := mediaBuyID(t, r.call("buyer-a", buy(key1, "5000", ""))); id != "mb_2" {
		t.Fatalf("after a rate limit the retry replayed %s", id)
	}
	r.panicNext.Store(true)
	if a := r.call("buyer-a", buy("key-after-panic-000001", "5000", "")); errorCode(a) != "SERVICE_UNAVAILABLE" {
		t.Fatalf("panic: %+v", a.Error)
	}
	if id := mediaBuyID(t, r.call("buyer-a", buy("key-after-panic-000001", "5000", ""))); id != "mb_4" {
		t.Fatalf("after a panic: %s", id)
	}
}

// A second buyer sending the first buyer's key gets its own answer: the
// key is not the first buyer's record for it, whatever the payload.
func TestKeysArePerPrincipal(t *testing.T) {
	r := newRig(t, withAdCP31Codes(), idempotency.Options{}, nil)
	if id := mediaBuyID(t, r.call("buyer-a", buy(key1, "5000", ""))); id != "mb_1" {
		t.Fatal(id)
	}
	b := r.call("buyer-b", buy(key1, "5000", ""))
	if id := mediaBuyID(t, b); id != "mb_2" || b.Replayed {
		t.Fatalf("buyer-b replaying buyer-a's key: %s replayed=%v", id, b.Replayed)
	}
	if a := r.call("buyer-b", buy("k-other-000000000001", "5000", "")); a.Error != nil {
		t.Fatal(a.Error)
	}
	// Another payload under buyer-a's key is no conflict for buyer-b: the
	// answer must not reveal that buyer-a used the key.
	c := r.call("buyer-b", buy("k-other-000000000002", "777", ""))
	if c.Error != nil {
		t.Fatal(c.Error)
	}
	// Over MCP with real credentials, the same.
	url := sellerrig.ServeMCP(t, r.srv)
	x := extract.New(r.spec)
	ctx := context.Background()
	buyerA := sellerrig.ConnectMCP(t, url, sellerrig.KeyOf("buyer-a"), x)
	buyerB := sellerrig.ConnectMCP(t, url, sellerrig.KeyOf("buyer-b"), x)
	const keyA = "only-buyer-a-uses-this-key"
	a := buyerA.Call(ctx, "create_media_buy", buy(keyA, "5000", ""))
	if a.Err != nil || a.Replayed {
		t.Fatalf("buyer-a over MCP: %+v %s", a, a.Data)
	}
	if again := buyerA.Call(ctx, "create_media_buy", buy(keyA, "5000", "")); !again.Replayed || again.Member("media_buy_id") != a.Member("media_buy_id") {
		t.Fatalf("buyer-a's retry over MCP: %+v %s", again, again.Data)
	}
	for _, budget := range []string{"5000", "99"} {
		bb := buyerB.Call(ctx, "create_media_buy", buy(keyA, budget, ""))
		if budget == "5000" && (bb.Err != nil || bb.Replayed || bb.Member("media_buy_id") == a.Member("media_buy_id")) {
			t.Fatalf("buyer-b over MCP with buyer-a's key: %+v %s", bb, bb.Data)
		}
		if budget == "99" && (bb.Err == nil || bb.Err.Code != "IDEMPOTENCY_CONFLICT") { // buyer-b's own record now
			t.Fatalf("buyer-b reusing its key: %+v", bb)
		}
	}
}

// concurrent sends n calls of one request at once through go-sdk's client
// and returns the outcomes; release runs once all are in flight or done.
func concurrent(t *testing.T, r *rig, n int, args string) []sellerrig.Outcome {
	t.Helper()
	url := sellerrig.ServeMCP(t, r.srv)
	buyer := sellerrig.ConnectMCP(t, url, sellerrig.KeyOf("buyer-a"), extract.New(r.spec))
	out := make([]sellerrig.Outcome, n)
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() { out[i] = buyer.Call(t.Context(), "create_media_buy", args) })
	}
	wg.Wait()
	return out
}

// 50 concurrent calls with one key, on a version with
// IDEMPOTENCY_IN_FLIGHT: the handler runs once; the others are told to
// retry, and a retry then replays the one answer.
func TestConcurrentCallsRejectInFlight(t *testing.T) {
	gate := make(chan struct{})
	r := newRig(t, withAdCP31Codes(), idempotency.Options{}, gate)
	done := make(chan []sellerrig.Outcome)
	go func() { done <- concurrent(t, r, storetest.Concurrency, buy(key1, "5000", "")) }()
	// The first call's handler holds until the others have had time to
	// arrive and be refused. A call arriving after the release is replayed
	// instead: the assertions hold either way.
	for r.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	close(gate)
	outs := <-done
	ids := map[string]int{}
	inflight := 0
	for _, o := range outs {
		switch {
		case o.CallErr != nil:
			t.Fatalf("call failed: %v", o.CallErr)
		case o.Err != nil:
			if o.Err.Code != "IDEMPOTENCY_IN_FLIGHT" || o.Err.Recovery != registry.Transient || o.Err.RetryAfter <= 0 {
				t.Fatalf("unexpected error %+v", o.Err)
			}
			inflight++
		default:
			ids[o.Member("media_buy_id")]++
		}
	}
	if n := r.calls.Load(); n != 1 || len(ids) != 1 || ids["mb_1"] == 0 {
		t.Fatalf("handler ran %d times; media buys %v; %d in flight", n, ids, inflight)
	}
	retry := sellerrig.ConnectMCP(t, sellerrig.ServeMCP(t, r.srv), sellerrig.KeyOf("buyer-a"), extract.New(r.spec)).
		Call(t.Context(), "create_media_buy", buy(key1, "5000", ""))
	if !retry.Replayed || retry.Member("media_buy_id") != "mb_1" {
		t.Fatalf("retry after in-flight: %+v %s", retry, retry.Data)
	}
	t.Logf("%d answered IDEMPOTENCY_IN_FLIGHT, %d the media buy", inflight, storetest.Concurrency-inflight)
}

// 50 concurrent calls with one key, on a version without
// IDEMPOTENCY_IN_FLIGHT (AdCP 3.0): the others wait and replay, so every
// caller gets the one media buy.
func TestConcurrentCallsWaitAndReplay(t *testing.T) {
	gate := make(chan struct{})
	r := newRig(t, adcpt.Spec(), idempotency.Options{PollInterval: 5 * time.Millisecond}, gate)
	go func() {
		for r.calls.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		close(gate)
	}()
	outs := concurrent(t, r, storetest.Concurrency, buy(key1, "5000", ""))
	replayed := 0
	for _, o := range outs {
		if o.CallErr != nil || o.Err != nil || o.Member("media_buy_id") != "mb_1" {
			t.Fatalf("outcome %+v %s", o, o.Data)
		}
		if o.Replayed {
			replayed++
		}
	}
	if n := r.calls.Load(); n != 1 || replayed != storetest.Concurrency-1 {
		t.Fatalf("handler ran %d times, %d replayed", n, replayed)
	}
}

// A handler that outlives its lease keeps the key: the layer renews it.
func TestLeaseRenewedWhileRunning(t *testing.T) {
	gate := make(chan struct{})
	r := newRig(t, withAdCP31Codes(), idempotency.Options{Lease: 30 * time.Millisecond}, gate)
	first := make(chan *seller.Answer)
	go func() { first <- r.call("buyer-a", buy(key1, "5000", "")) }()
	for r.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	// Well past the lease on the store's clock, but renewed in real time.
	for range 5 {
		time.Sleep(20 * time.Millisecond)
		r.clock.Advance(20 * time.Millisecond)
		if a := r.call("buyer-a", buy(key1, "5000", "")); errorCode(a) != "IDEMPOTENCY_IN_FLIGHT" {
			t.Fatalf("while the first runs: %s %+v", a.Body, a.Error)
		}
	}
	close(gate)
	if id := mediaBuyID(t, <-first); id != "mb_1" || r.calls.Load() != 1 {
		t.Fatalf("%s after %d runs", id, r.calls.Load())
	}
}

// Tools that do not require a key pass through; a required one refuses a
// call without it before the handler (the schema catches that first on a
// server with schemas: this is the layer's own check).
func TestMissingKey(t *testing.T) {
	layer := idempotency.New(withAdCP31Codes(), sellerstore.NewMemory(nil), idempotency.Options{})
	ran := 0
	next := func(context.Context, *seller.Call) *seller.Answer {
		ran++
		return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{}`)}
	}
	d := layer.Middleware()(next)
	for _, c := range []struct {
		tool     registry.Tool
		args     string
		want     string
		ranAfter int
	}{
		{registry.Tool{Name: "create_media_buy", Mutating: true, IdempotencyRequired: true}, `{"packages":[]}`, "INVALID_REQUEST", 0},
		{registry.Tool{Name: "create_media_buy", Mutating: true, IdempotencyRequired: true}, `{"idempotency_key":""}`, "INVALID_REQUEST", 0},
		{registry.Tool{Name: "create_media_buy", Mutating: true, IdempotencyRequired: true}, `{"idempotency_key":7}`, "INVALID_REQUEST", 0},
		{registry.Tool{Name: "get_products"}, `{}`, "", 1},
		{registry.Tool{Name: "update_thing", Mutating: true}, `{}`, "", 2},
		{registry.Tool{Name: "update_thing", Mutating: true}, `{"idempotency_key":"optional-key-000001"}`, "", 3},
		{registry.Tool{Name: "update_thing", Mutating: true}, `{"idempotency_key":"optional-key-000001"}`, "", 3}, // replayed
	} {
		a := d(context.Background(), &seller.Call{Tool: c.tool, Arguments: json.RawMessage(c.args), Principal: seller.Principal{ID: "p"}})
		if errorCode(a) != c.want || ran != c.ranAfter {
			t.Errorf("%s %s: %+v, handler runs %d, want %q and %d", c.tool.Name, c.args, a.Error, ran, c.want, c.ranAfter)
		}
		if c.want == "INVALID_REQUEST" && (a.Error.Field != "idempotency_key" || a.Error.Recovery != registry.Correctable) {
			t.Errorf("%s: %+v", c.args, a.Error)
		}
	}
}

// The replay window, and where the version has it (with
// IDEMPOTENCY_IN_FLIGHT, from 3.1) the longest a key stays in flight:
// the handler's timeout, the wait for the store and the lease.
func TestCapabilitiesDeclareTheReplayWindow(t *testing.T) {
	for _, c := range []struct {
		spec *registry.Spec
		want string
	}{
		{adcpt.Spec(), `"idempotency":{"supported":true,"replay_ttl_seconds":7200}`},
		{withAdCP31Codes(), `"idempotency":{"supported":true,"replay_ttl_seconds":7200,"in_flight_max_seconds":75}`},
	} {
		r := newRig(t, c.spec, idempotency.Options{Retention: 2 * time.Hour, HandlerTimeout: time.Minute, CompleteWait: 10 * time.Second, Lease: 5 * time.Second}, nil)
		a := r.srv.Serve(context.Background(), "get_adcp_capabilities", &seller.Call{Arguments: json.RawMessage(`{}`)})
		if a.Error != nil || !strings.Contains(string(a.Body), c.want) {
			t.Fatalf("%s %v, want %s", a.Body, a.Error, c.want)
		}
	}
}

// The key is echoed where the payload's schema admits it; with a
// validator, never into a payload whose schema is closed.
func TestKeyEcho(t *testing.T) {
	tree, err := spec.OpenFS(fstest.MapFS{
		"core/open-response.json":   {Data: []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","$id":"/schemas/9.9.9/core/open-response.json","type":"object"}`)},
		"core/closed-response.json": {Data: []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","$id":"/schemas/9.9.9/core/closed-response.json","type":"object","properties":{"id":{"type":"string"}},"additionalProperties":false}`)},
	}, "keyecho", spec.KindEmbedded)
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	next := func(context.Context, *seller.Call) *seller.Answer {
		return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{"id":"x"}`)}
	}
	for _, c := range []struct {
		schema string
		opts   idempotency.Options
		want   string
	}{
		{"core/open-response.json", idempotency.Options{Validator: v}, `{"idempotency_key":"key-echo-000000000001","id":"x"}`},
		{"core/closed-response.json", idempotency.Options{Validator: v}, `{"id":"x"}`},
		{"core/closed-response.json", idempotency.Options{}, `{"idempotency_key":"key-echo-000000000001","id":"x"}`},
		{"core/open-response.json", idempotency.Options{Validator: v, NoKeyEcho: true}, `{"id":"x"}`},
	} {
		d := idempotency.New(adcpt.Spec(), sellerstore.NewMemory(nil), c.opts).Middleware()(next)
		tool := registry.Tool{Name: "create_thing", Mutating: true, IdempotencyRequired: true, ResponseSchema: c.schema}
		for _, replay := range []bool{false, true} {
			a := d(context.Background(), &seller.Call{Tool: tool, Arguments: json.RawMessage(`{"idempotency_key":"key-echo-000000000001"}`), Principal: seller.Principal{ID: "p"}})
			if string(a.Body) != c.want || a.Replayed != replay {
				t.Errorf("%s %+v (replay %v): %s", c.schema, c.opts.NoKeyEcho, replay, a.Body)
			}
		}
	}
}

// 50 concurrent calls with one key and two different requests: the
// handler runs once, for one of them; every call with that request gets
// its media buy, every call with the other IDEMPOTENCY_CONFLICT.
func TestConcurrentConflictingCalls(t *testing.T) {
	gate := make(chan struct{})
	r := newRig(t, adcpt.Spec(), idempotency.Options{PollInterval: 5 * time.Millisecond}, gate)
	go func() {
		for r.calls.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		close(gate)
	}()
	url := sellerrig.ServeMCP(t, r.srv)
	buyer := sellerrig.ConnectMCP(t, url, sellerrig.KeyOf("buyer-a"), extract.New(r.spec))
	budgets := []string{"100", "200"}
	outs := make([]sellerrig.Outcome, storetest.Concurrency)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Go(func() { outs[i] = buyer.Call(t.Context(), "create_media_buy", buy(key1, budgets[i%2], "")) })
	}
	wg.Wait()
	won := map[string]int{}
	conflicts := map[string]int{}
	for i, o := range outs {
		switch {
		case o.CallErr != nil:
			t.Fatal(o.CallErr)
		case o.Err != nil && o.Err.Code == "IDEMPOTENCY_CONFLICT":
			conflicts[budgets[i%2]]++
		case o.Err == nil && o.Member("media_buy_id") == "mb_1":
			won[budgets[i%2]]++
		default:
			t.Fatalf("call %d: %+v %s", i, o.Err, o.Data)
		}
	}
	if r.calls.Load() != 1 || len(won) != 1 || len(conflicts) != 1 {
		t.Fatalf("handler runs %d; successes by budget %v; conflicts by budget %v", r.calls.Load(), won, conflicts)
	}
	for b := range won {
		if conflicts[b] != 0 || won[b] != storetest.Concurrency/2 {
			t.Fatalf("budget %s won %d and conflicted %d", b, won[b], conflicts[b])
		}
	}
}

// A handler that hangs past HandlerTimeout (security.mdx rule 9) gets its
// context ended; the key is released, not left in flight, and the buyer's
// retry runs the handler again.
func TestHandlerTimeoutReleasesTheKey(t *testing.T) {
	gate := make(chan struct{})
	r := newRig(t, withAdCP31Codes(), idempotency.Options{HandlerTimeout: 50 * time.Millisecond}, gate)
	if a := r.call("buyer-a", buy(key1, "5000", "")); a.Error == nil || a.Error.Recovery != registry.Transient {
		t.Fatalf("a hung handler answered %s %+v", a.Body, a.Error)
	}
	close(gate)
	if id := mediaBuyID(t, r.call("buyer-a", buy(key1, "5000", ""))); id != "mb_2" || r.calls.Load() != 2 {
		t.Fatalf("retry: %s after %d runs", id, r.calls.Load())
	}
}

// A claim lost while the handler runs (its record purged here; in
// production, a lease that lapsed while the store was away and another
// call's takeover) ends the handler's context: its answer could not be
// recorded, so it is not sent, and the next call runs the handler.
func TestLostClaimStopsTheHandler(t *testing.T) {
	gate := make(chan struct{})
	r := newRig(t, withAdCP31Codes(), idempotency.Options{Lease: 30 * time.Millisecond}, gate)
	first := make(chan *seller.Answer)
	go func() { first <- r.call("buyer-a", buy(key1, "5000", "")) }()
	for r.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	r.clock.Advance(time.Minute)
	if _, err := r.store.Purge(t.Context(), r.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if a := <-first; a.Error == nil {
		t.Fatalf("the handler whose claim was lost answered %s", a.Body)
	}
	close(gate)
	if id := mediaBuyID(t, r.call("buyer-a", buy(key1, "5000", ""))); id != "mb_2" {
		t.Fatalf("the next call: %s", id)
	}
}

// flaky is an idempotency store that is not sellerstore.Atomic (a store of
// the seller's own) and whose Complete fails, unreachable, while down.
type flaky struct {
	sellerstore.IdempotencyStore
	down atomic.Bool
}

func (f *flaky) Complete(ctx context.Context, key sellerstore.IdempotencyKey, token string, resp sellerstore.StoredResponse) error {
	if f.down.Load() {
		return &sellerstore.OutageError{Op: "complete", Wait: 3 * time.Second, Err: errors.New("connection refused")}
	}
	return f.IdempotencyStore.Complete(ctx, key, token, resp)
}

// With a store that is not Atomic, a success is sent only once recorded:
// while the store is away past CompleteWait the buyer gets a transient
// SERVICE_UNAVAILABLE with the store's retry_after, and once it is back
// the answer is recorded in the background and a retry replays it; the
// handler ran once.
func TestSuccessSentOnlyWhenRecorded(t *testing.T) {
	store := &flaky{IdempotencyStore: sellerstore.NewMemory(nil)}
	layer := idempotency.New(adcpt.Spec(), store, idempotency.Options{CompleteWait: 300 * time.Millisecond})
	srv, err := seller.New(adcpt.Spec(), seller.Options{Middleware: []seller.Middleware{layer.Middleware()}})
	if err != nil {
		t.Fatal(err)
	}
	var runs atomic.Int64
	seller.HandleSync(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResponse, error) {
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: fmt.Sprintf("mb_%d", runs.Add(1))})
		return &resp, nil
	})
	call := func() *seller.Answer {
		return srv.Serve(context.Background(), "create_media_buy", &seller.Call{Principal: seller.Principal{ID: "buyer-a"},
			Arguments: json.RawMessage(buy(key1, "5000", ""))})
	}
	store.down.Store(true)
	a := call()
	if a.Error == nil || a.Error.Code != "SERVICE_UNAVAILABLE" || a.Error.RetryAfter != 3*time.Second {
		t.Fatalf("while the store is away: %s %+v", a.Body, a.Error)
	}
	store.down.Store(false)
	deadline := time.Now().Add(30 * time.Second)
	for {
		a = call()
		if a.Error == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // the background completion retries every second or so
	}
	if id := mediaBuyID(t, a); id != "mb_1" || !a.Replayed || runs.Load() != 1 {
		t.Fatalf("after the store came back: %s replayed %v, %d runs", id, a.Replayed, runs.Load())
	}
}

// A store at its bound (sellerstore.ErrFull) refuses a new key with
// RATE_LIMITED and a retry_after (security.mdx rule 8), while keys it
// holds still replay.
func TestFullStoreRateLimits(t *testing.T) {
	r := newRig(t, adcpt.Spec(), idempotency.Options{}, nil)
	r.store.SetCapacity(1, 0)
	first := mediaBuyID(t, r.call("buyer-a", buy(key1, "5000", "")))
	a := r.call("buyer-a", buy("9b2e4c6a-1d3f-4a5b-8c7d-6e5f4a3b2c1d", "5000", ""))
	if a.Error == nil || a.Error.Code != "RATE_LIMITED" || a.Error.Recovery != registry.Transient || a.Error.RetryAfter < time.Second {
		t.Fatalf("a new key in a full store: %+v", a.Error)
	}
	if again := r.call("buyer-a", buy(key1, "5000", "")); mediaBuyID(t, again) != first || !again.Replayed {
		t.Fatalf("the key it holds: %s", again.Body)
	}
}
