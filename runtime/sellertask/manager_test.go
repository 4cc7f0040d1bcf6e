package sellertask_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellerrig"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

type buyHandle = seller.TaskHandle[adcpt.CreateMediaBuyResponse, adcpt.CreateMediaBuySubmitted, adcpt.CreateMediaBuyWorking, task.None]

// rig is the test seller with the store-backed Manager: create_media_buy
// always answers submitted and keeps the handle for the test to report on.
type rig struct {
	srv     *seller.Server
	tasks   *sellertask.Manager
	spec    *registry.Spec
	mu      sync.Mutex
	handles map[string]*buyHandle
	url     string
}

func newRig(t *testing.T, spec *registry.Spec, sender *webhook.Sender, change ...func(*rig, *sellertask.Options)) *rig {
	t.Helper()
	r := &rig{spec: spec, handles: map[string]*buyHandle{}}
	opts := sellertask.Options{Store: sellerstore.NewMemory(nil), Sender: sender}
	for _, f := range change {
		f(r, &opts)
	}
	r.tasks = sellertask.New(spec, opts)
	srv, err := seller.New(spec, seller.Options{
		Schemas:           sellertest.Tree(t),
		ValidateResponses: true,
		Authenticator:     sellerrig.Authenticator(),
		Tasks:             r.tasks,
	})
	if err != nil {
		t.Fatal(err)
	}
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		h, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy)
		if err != nil {
			return nil, err
		}
		r.mu.Lock()
		r.handles[h.ID()] = h
		r.mu.Unlock()
		return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Message: "Queued for approval.", Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
	})
	r.tasks.ServeStatusTools(srv)
	r.srv = srv
	r.url = sellerrig.ServeMCP(t, srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.tasks.Wait(ctx); err != nil {
			t.Errorf("deliveries still running: %v", err)
		}
	})
	return r
}

func (r *rig) handle(id string) *buyHandle {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.handles[id]
}

func (r *rig) buyer(t *testing.T, principal string) *sellerrig.Buyer {
	return sellerrig.ConnectMCP(t, r.url, sellerrig.KeyOf(principal), extract.New(r.spec))
}

func createArgs(extra string) string {
	s := `{"idempotency_key":"0c9d6b8e-5b44-4d3c-8f5a-8d3c2f0e9a11","packages":[{"product_id":"ctv","budget":5000}],"context":{"trace":"t-1"}`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func success(id string) *adcpt.CreateMediaBuyResponse {
	r := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: id})
	return &r
}

// A task polled through tasks/get from submitted to completed, over MCP.
func TestPollToCompletion(t *testing.T) {
	r := newRig(t, adcpt.Spec(), nil)
	ctx := t.Context()
	a := r.buyer(t, "buyer-a")
	sub := a.Call(ctx, "create_media_buy", createArgs(""))
	if sub.Err != nil || sub.Status != task.Submitted || sub.TaskID == "" {
		t.Fatalf("create: %+v %s", sub, sub.Data)
	}
	poll := func(args string) sellerrig.Outcome {
		t.Helper()
		o := a.Call(ctx, sellertask.ToolTasksGet, args)
		if o.Err != nil || o.CallErr != nil {
			t.Fatalf("tasks/get: %+v", o)
		}
		return o
	}
	byID := `{"task_id":"` + sub.TaskID + `","include_result":true,"context":{"poll":1}}`
	got := poll(byID)
	if got.Status != task.Submitted || got.Member("task_type") != "create_media_buy" || got.Member("protocol") != "media-buy" ||
		got.Member("created_at") == "" || got.Member("message") != "" || wire.Lenient(got.Data).Get("result").Present() ||
		string(wire.Lenient(got.Data).Get("context")) != `{"poll":1}` || string(wire.Lenient(got.Data).Get("has_webhook")) != "false" {
		t.Fatalf("submitted: %s", got.Data)
	}
	h := r.handle(sub.TaskID)
	pct := 40.0
	if err := h.Working(ctx, &adcpt.CreateMediaBuyWorking{Percentage: &pct}, "Checking inventory."); err != nil {
		t.Fatal(err)
	}
	got = poll(byID)
	if got.Status != task.Working || got.Member("message") != "Checking inventory." ||
		string(wire.Lenient(got.Data).Get("progress").Get("percentage")) != "40" {
		t.Fatalf("working: %s", got.Data)
	}
	if err := h.Complete(ctx, success("mb_77"), "Approved."); err != nil {
		t.Fatal(err)
	}
	got = poll(byID)
	result := wire.Lenient(got.Data).Get("result")
	var resp adcpt.CreateMediaBuyResponse
	if err := wire.Unmarshal(result, &resp); err != nil {
		t.Fatalf("result %s: %v", result, err)
	}
	if got.Status != task.Completed || resp.Success == nil || resp.Success.MediaBuyID != "mb_77" || got.Member("completed_at") == "" ||
		string(result.Get("context")) != `{"trace":"t-1"}` {
		t.Fatalf("completed: %s", got.Data)
	}
	// Without include_result, tasks/get still includes it (JavaScript
	// buyers rely on it); include_result false leaves it out.
	if o := poll(`{"task_id":"` + sub.TaskID + `"}`); !wire.Lenient(o.Data).Get("result").Present() {
		t.Fatalf("default: %s", o.Data)
	}
	if o := poll(`{"task_id":"` + sub.TaskID + `","include_result":false}`); wire.Lenient(o.Data).Get("result").Present() {
		t.Fatalf("include_result false: %s", o.Data)
	}
	if err := h.Complete(ctx, success("mb_78"), ""); err == nil {
		t.Fatal("a completed task took another result")
	}
	// The A2A transport reads the same store (a2aserver's tasks/get).
	snap, err := r.srv.Tasks().Get(ctx, "buyer-a", sub.TaskID)
	if err != nil || snap.Status != task.Completed || snap.Answer == nil || !strings.Contains(string(snap.Answer.Body), `"mb_77"`) || snap.Answer.Message != "Approved." {
		t.Fatalf("snapshot %+v %v", snap, err)
	}
}

// "Not yours" and "does not exist" are the same answer.
func TestOtherPrincipalsTaskIsNotFound(t *testing.T) {
	r := newRig(t, adcpt.Spec(), nil)
	ctx := t.Context()
	sub := r.buyer(t, "buyer-a").Call(ctx, "create_media_buy", createArgs(""))
	b := r.buyer(t, "buyer-b")
	theirs := b.Call(ctx, sellertask.ToolTasksGet, `{"task_id":"`+sub.TaskID+`"}`)
	missing := b.Call(ctx, sellertask.ToolTasksGet, `{"task_id":"task_00000000000000000000000000000000"}`)
	if theirs.Err == nil || missing.Err == nil {
		t.Fatalf("buyer-b read a task: %+v / %+v", theirs, missing)
	}
	norm := func(e *adcperr.Error) string {
		return e.Code + "|" + string(e.Recovery) + "|" + strings.ReplaceAll(strings.ReplaceAll(e.Message, sub.TaskID, "ID"), "task_00000000000000000000000000000000", "ID")
	}
	if norm(theirs.Err) != norm(missing.Err) || theirs.Err.Code != "REFERENCE_NOT_FOUND" {
		t.Fatalf("another's task %q, a missing one %q", norm(theirs.Err), norm(missing.Err))
	}
	if _, err := r.srv.Tasks().Get(ctx, "buyer-b", sub.TaskID); !errors.Is(err, seller.ErrTaskNotFound) {
		t.Fatalf("Get across principals: %v", err)
	}
	// buyer-b cannot report on buyer-a's task either.
	err := r.tasks.Update(ctx, seller.TaskEvent{ID: sub.TaskID, Principal: "buyer-b", Tool: "create_media_buy",
		Answer: &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{"media_buy_id":"x"}`)}})
	if !errors.Is(err, seller.ErrTaskNotFound) {
		t.Fatalf("Update across principals: %v", err)
	}
}

// receiverRig is the buyer's webhook endpoint: webhook.Receiver with the
// shared secret, typed for create_media_buy, failing the first fail posts.
type receiverRig struct {
	url    string
	mu     sync.Mutex
	events []*webhook.Event[adcpt.CreateMediaBuyResponse, adcpt.CreateMediaBuySubmitted, adcpt.CreateMediaBuyWorking, task.None]
	got    chan struct{}
	posts  atomic.Int32
}

const secret = "7f3e9b2c4d5a6e8f0a1b2c3d4e5f6a7b8c9d0e1f"

func newReceiver(t *testing.T, fail int32) *receiverRig {
	t.Helper()
	h, err := webhook.NewHMAC([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	rr := &receiverRig{got: make(chan struct{}, 16)}
	rc := webhook.NewReceiver(adcpt.Spec(), webhook.ReceiverOptions{HMAC: h})
	if err := webhook.On(rc, adcpt.Tools.CreateMediaBuy, func(_ context.Context, ev *webhook.Event[adcpt.CreateMediaBuyResponse, adcpt.CreateMediaBuySubmitted, adcpt.CreateMediaBuyWorking, task.None]) error {
		rr.mu.Lock()
		rr.events = append(rr.events, ev)
		rr.mu.Unlock()
		rr.got <- struct{}{}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /hooks/{task_type}/{operation_id}", rc)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if rr.posts.Add(1) <= fail {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		mux.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	rr.url = srv.URL + "/hooks/create_media_buy/op_9"
	return rr
}

func (rr *receiverRig) wait(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-rr.got:
		case <-time.After(10 * time.Second):
			t.Fatalf("webhook %d of %d never arrived", len(rr.events)+1, n)
		}
	}
}

func loopbackSender() *webhook.Sender {
	return webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}, Retry: retry.Policy{InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}})
}

// Every update of a task whose request carried a push_notification_config
// is posted, in order, signed; the buyer's receiver verifies the
// signature and gets typed values. The receiver fails twice first.
func TestWebhookDelivery(t *testing.T) {
	rr := newReceiver(t, 2)
	r := newRig(t, adcpt.Spec(), loopbackSender())
	ctx := t.Context()
	push := `"push_notification_config":{"url":"` + rr.url + `","operation_id":"op_9","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + secret + `"}}`
	sub := r.buyer(t, "buyer-a").Call(ctx, "create_media_buy", createArgs(push))
	if sub.Err != nil || sub.TaskID == "" {
		t.Fatalf("create: %+v", sub)
	}
	h := r.handle(sub.TaskID)
	pct := 70.0
	if err := h.Working(ctx, &adcpt.CreateMediaBuyWorking{Percentage: &pct}, "Almost."); err != nil {
		t.Fatal(err)
	}
	if err := h.Complete(ctx, success("mb_5"), "Done."); err != nil {
		t.Fatal(err)
	}
	rr.wait(t, 2)
	rr.mu.Lock()
	defer rr.mu.Unlock()
	w, c := rr.events[0], rr.events[1]
	if w.Status != task.Working || w.Working == nil || *w.Working.Percentage != 70 || w.TaskID != sub.TaskID || w.Message != "Almost." {
		t.Fatalf("first webhook: %+v", w.Result)
	}
	if c.Status != task.Completed || c.Response == nil || c.Response.Success == nil || c.Response.Success.MediaBuyID != "mb_5" ||
		c.Notification.OperationID != "op_9" || c.Notification.IdempotencyKey == "" || c.Notification.TaskType != "create_media_buy" {
		t.Fatalf("second webhook: %+v %+v", c.Result, c.Notification)
	}
	if n := rr.posts.Load(); n != 4 {
		t.Fatalf("%d posts, want 2 refused and 2 accepted", n)
	}
	if o := r.buyer(t, "buyer-a").Call(ctx, sellertask.ToolTasksGet, `{"task_id":"`+sub.TaskID+`"}`); string(wire.Lenient(o.Data).Get("has_webhook")) != "true" {
		t.Fatalf("has_webhook: %s", o.Data)
	}
}

// A failed task: the error is recorded, reported by tasks/get, and posted.
func TestFailedTask(t *testing.T) {
	rr := newReceiver(t, 0)
	r := newRig(t, adcpt.Spec(), loopbackSender())
	ctx := t.Context()
	push := `"push_notification_config":{"url":"` + rr.url + `","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + secret + `"}}`
	sub := r.buyer(t, "buyer-a").Call(ctx, "create_media_buy", createArgs(push))
	if err := r.handle(sub.TaskID).Fail(ctx, &adcperr.Error{Code: "BUDGET_TOO_LOW", Message: "Budget below the minimum."}); err != nil {
		t.Fatal(err)
	}
	rr.wait(t, 1)
	if ev := rr.events[0]; ev.Status != task.Failed || ev.Err == nil || ev.Err.Code != "BUDGET_TOO_LOW" || ev.Err.Recovery != registry.Correctable ||
		ev.Notification.OperationID != sub.TaskID {
		t.Fatalf("webhook: %+v err %+v op %q", ev.Result, ev.Err, ev.Notification.OperationID)
	}
	o := r.buyer(t, "buyer-a").Call(ctx, sellertask.ToolTasksGet, `{"task_id":"`+sub.TaskID+`"}`)
	if o.Status != task.Failed || o.Member("completed_at") == "" || string(wire.Lenient(o.Data).Get("error").Get("code")) != `"BUDGET_TOO_LOW"` {
		t.Fatalf("tasks/get: %s", o.Data)
	}
}

// A push_notification_config the sender would never deliver to refuses
// the request up front.
func TestUnusablePushConfig(t *testing.T) {
	r := newRig(t, adcpt.Spec(), webhook.NewSender(webhook.SenderOptions{}))
	for _, push := range []string{
		`"push_notification_config":{"url":"https://169.254.169.254/latest/meta-data"}`,
		`"push_notification_config":{"url":"http://buyer.example/hook"}`,
		`"push_notification_config":{"url":"https://buyer.example/hook","authentication":{"schemes":["HMAC-SHA256"],"credentials":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}`,
	} {
		o := r.buyer(t, "buyer-a").Call(t.Context(), "create_media_buy", createArgs(push))
		if o.Err == nil || o.Err.Code != "INVALID_REQUEST" || o.Err.Recovery != registry.Correctable || o.Err.Field != "push_notification_config.url" {
			t.Fatalf("%s: %+v", push, o.Err)
		}
	}
}

// withStatusTools is the test spec with AdCP 3.1's get_task_status and
// list_tasks in its tool table.
func withStatusTools() *registry.Spec {
	base := adcpt.Spec()
	return registry.NewSpec(registry.SpecConfig{
		Version: base.Version(),
		Tools: append(base.Tools(),
			registry.Tool{Name: sellertask.ToolGetTaskStatus, Protocol: "protocol"},
			registry.Tool{Name: sellertask.ToolListTasks, Protocol: "protocol"}),
		Codes:           base.Codes(),
		UnknownRecovery: base.UnknownRecovery(),
		NewDetails:      base.NewDetails,
		NewBySchema:     base.NewBySchema,
	})
}

func TestStatusToolsPerVersion(t *testing.T) {
	r30 := newRig(t, adcpt.Spec(), nil)
	if !r30.srv.Serves(sellertask.ToolTasksGet) || r30.srv.Serves(sellertask.ToolGetTaskStatus) || r30.srv.Serves(sellertask.ToolListTasks) {
		t.Fatal("a version without the 3.1 tools")
	}
	r := newRig(t, withStatusTools(), nil)
	for _, name := range []string{sellertask.ToolTasksGet, sellertask.ToolGetTaskStatus, sellertask.ToolListTasks} {
		if !r.srv.Serves(name) {
			t.Fatalf("%s not served", name)
		}
	}
	ctx := t.Context()
	a := r.buyer(t, "buyer-a")
	var ids []string
	for range 3 {
		o := a.Call(ctx, "create_media_buy", createArgs(""))
		ids = append(ids, o.TaskID)
	}
	r.buyer(t, "buyer-b").Call(ctx, "create_media_buy", createArgs(""))
	if err := r.handle(ids[0]).Complete(ctx, success("mb_1"), ""); err != nil {
		t.Fatal(err)
	}
	// get_task_status leaves the result out unless asked.
	if o := a.Call(ctx, sellertask.ToolGetTaskStatus, `{"task_id":"`+ids[0]+`"}`); o.Status != task.Completed || wire.Lenient(o.Data).Get("result").Present() {
		t.Fatalf("get_task_status: %s", o.Data)
	}
	if o := a.Call(ctx, sellertask.ToolGetTaskStatus, `{"task_id":"`+ids[0]+`","include_result":true}`); !wire.Lenient(o.Data).Get("result").Present() {
		t.Fatalf("get_task_status with include_result: %s", o.Data)
	}
	list := func(args string) (tasks []string, cursor string) {
		t.Helper()
		o := a.Call(ctx, sellertask.ToolListTasks, args)
		if o.Err != nil {
			t.Fatalf("list_tasks %s: %v", args, o.Err)
		}
		d := wire.Lenient(o.Data)
		d.Get("tasks").Elems(func(e wire.Lenient) bool {
			id, _ := e.Get("task_id").AsString()
			tasks = append(tasks, id)
			return true
		})
		cursor, _ = d.Get("pagination").Get("cursor").AsString()
		return tasks, cursor
	}
	all, _ := list(`{}`)
	if len(all) != 3 || all[0] != ids[2] || all[2] != ids[0] {
		t.Fatalf("list: %v, want buyer-a's three newest first (%v)", all, ids)
	}
	first, cursor := list(`{"pagination":{"max_results":2}}`)
	rest, end := list(`{"pagination":{"max_results":2,"cursor":"` + cursor + `"}}`)
	if len(first) != 2 || len(rest) != 1 || end != "" || rest[0] != ids[0] {
		t.Fatalf("pages %v %v (cursor %q, then %q)", first, rest, cursor, end)
	}
	if done, _ := list(`{"filters":{"statuses":["completed"]}}`); len(done) != 1 || done[0] != ids[0] {
		t.Fatalf("completed: %v", done)
	}
	if some, _ := list(`{"filters":{"task_ids":["` + ids[1] + `","task_nope"]}}`); len(some) != 1 || some[0] != ids[1] {
		t.Fatalf("by id: %v", some)
	}
	if none, _ := list(`{"filters":{"status":"unknown"}}`); len(none) != 0 {
		t.Fatalf("unknown: %v", none)
	}
	if o := a.Call(ctx, sellertask.ToolListTasks, `{"pagination":{"cursor":"!!"}}`); o.Err == nil || o.Err.Field != "pagination.cursor" {
		t.Fatalf("bad cursor: %+v", o)
	}
}

// Refresh runs before every read for a buyer, with the buyer's principal:
// here it completes the task on the first poll, over MCP's tasks/get and
// the TaskManager's Get alike.
func TestRefreshBeforeRead(t *testing.T) {
	var seen []string
	r := newRig(t, adcpt.Spec(), nil, func(r *rig, o *sellertask.Options) {
		o.Refresh = func(ctx context.Context, principal, id string) error {
			seen = append(seen, principal+" "+id)
			if h := r.handle(id); h != nil && principal == "buyer-a" {
				_ = h.Complete(ctx, success("mb_lazy"), "")
			}
			return nil
		}
	})
	ctx := t.Context()
	a := r.buyer(t, "buyer-a")
	sub := a.Call(ctx, "create_media_buy", createArgs(""))
	if o := a.Call(ctx, sellertask.ToolTasksGet, `{"task_id":"`+sub.TaskID+`"}`); o.Status != task.Completed ||
		!strings.Contains(string(wire.Lenient(o.Data).Get("result")), "mb_lazy") {
		t.Fatalf("first poll: %s", o.Data)
	}
	if snap, err := r.srv.Tasks().Get(ctx, "buyer-b", sub.TaskID); err == nil {
		t.Fatalf("buyer-b got %+v", snap)
	}
	if len(seen) != 2 || seen[0] != "buyer-a "+sub.TaskID || seen[1] != "buyer-b "+sub.TaskID {
		t.Fatalf("Refresh saw %v", seen)
	}
}
