package sellertask_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellerrig"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// syncSeller answers create_media_buy synchronously (a budget of 1 is
// refused), behind the idempotency layer and NotifySyncResults.
func syncSeller(t *testing.T, sender *webhook.Sender) (*sellerrig.Buyer, *sellertask.Manager, *atomic.Int32) {
	t.Helper()
	return syncSellerAt(t, sender, nil)
}

// syncSellerAt is syncSeller with the store and the Manager on the clock
// now (nil: the wall's).
func syncSellerAt(t *testing.T, sender *webhook.Sender, now func() time.Time) (*sellerrig.Buyer, *sellertask.Manager, *atomic.Int32) {
	t.Helper()
	var store *sellerstore.Memory
	if now != nil {
		store = sellerstore.NewMemory(clockFunc(now))
	} else {
		store = sellerstore.NewMemory(nil)
	}
	tasks := sellertask.New(adcpt.Spec(), sellertask.Options{Store: store, Sender: sender, Now: now})
	layer := idempotency.New(adcpt.Spec(), store, idempotency.Options{})
	srv, err := seller.New(adcpt.Spec(), seller.Options{
		Schemas:           sellertest.Tree(t),
		ValidateResponses: true,
		Authenticator:     sellerrig.Authenticator(),
		Tasks:             tasks,
		Middleware:        []seller.Middleware{layer.Middleware(), tasks.NotifySyncResults()},
	})
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(_ context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		calls.Add(1)
		if req.Packages[0].Budget == 1 {
			return nil, &adcperr.Error{Code: "INVALID_REQUEST", Message: "budget too small"}
		}
		return &adcpt.CreateMediaBuyResult{Message: "Created.", Response: success("mb_1")}, nil
	})
	tasks.ServeStatusTools(srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := tasks.Wait(ctx); err != nil {
			t.Errorf("deliveries still running: %v", err)
		}
	})
	return sellerrig.ConnectMCP(t, sellerrig.ServeMCP(t, srv), sellerrig.KeyOf("buyer-a"), extract.New(adcpt.Spec())), tasks, &calls
}

// TestNotifySyncResults: a synchronous response to a request with a
// push_notification_config is posted once, as a completed task the status
// tools read back; a replay, an error, or a request without the config
// posts nothing; a config the Sender refuses stops the call before the
// handler.
func TestNotifySyncResults(t *testing.T) {
	const key = "5e0c9a7d-3b1f-4d2e-8c6a-9f1e2d3c4b5a"
	args := func(budget, push, ctxID string) string {
		s := `{"idempotency_key":"` + key + `","packages":[{"product_id":"ctv","budget":` + budget + `}],"context":{"c":"` + ctxID + `"}`
		if push != "" {
			s += `,"push_notification_config":{"url":"` + push + `","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + secret + `"}}`
		}
		return s + "}"
	}
	for _, tt := range []struct {
		name     string
		budget   string
		push     bool
		loopback bool // the Sender accepts the loopback receiver
		replay   bool
		posts    int32
		errCode  string
		calls    int32
	}{
		{name: "posted once, replay not posted", budget: "5000", push: true, loopback: true, replay: true, posts: 1, calls: 1},
		{name: "no push config", budget: "5000", loopback: true, posts: 0, calls: 1},
		{name: "an error is not posted", budget: "1", push: true, loopback: true, posts: 0, errCode: "INVALID_REQUEST", calls: 1},
		{name: "a refused URL stops the call", budget: "5000", push: true, posts: 0, errCode: "INVALID_REQUEST", calls: 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rr := newReceiver(t, 0)
			sender := webhook.NewSender(webhook.SenderOptions{})
			if tt.loopback {
				sender = loopbackSender()
			}
			b, tasks, calls := syncSeller(t, sender)
			push := ""
			if tt.push {
				push = rr.url
			}
			ctx := t.Context()
			o := b.Call(ctx, "create_media_buy", args(tt.budget, push, "first"))
			if tt.errCode != "" {
				if o.Err == nil || o.Err.Code != tt.errCode {
					t.Fatalf("want %s, got %+v %s", tt.errCode, o.Err, o.Data)
				}
				if tt.calls == 0 && !strings.Contains(o.Err.Message, "push_notification_config") {
					t.Errorf("message %q", o.Err.Message)
				}
			} else if o.Err != nil || o.Status != task.Completed || o.TaskID != "" || o.Member("media_buy_id") != "mb_1" {
				t.Fatalf("answer %+v %s", o, o.Data)
			}
			if tt.replay {
				if r := b.Call(ctx, "create_media_buy", args(tt.budget, push, "retry")); r.Err != nil || string(wire.Lenient(r.Data).Get("replayed")) != "true" {
					t.Fatalf("replay %+v %s", r, r.Data)
				}
			}
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			if err := tasks.Wait(wctx); err != nil {
				t.Fatal(err)
			}
			if n := rr.posts.Load(); n != tt.posts {
				t.Fatalf("%d posts, want %d", n, tt.posts)
			}
			if n := calls.Load(); n != tt.calls {
				t.Fatalf("handler ran %d times, want %d", n, tt.calls)
			}
			if tt.posts == 0 {
				return
			}
			rr.mu.Lock()
			ev := rr.events[0]
			rr.mu.Unlock()
			if ev.Status != task.Completed || ev.Response == nil || ev.Response.Success == nil || ev.Response.Success.MediaBuyID != "mb_1" ||
				ev.TaskID == "" || ev.Notification.IdempotencyKey == "" || ev.Message != "Created." {
				t.Fatalf("webhook %+v %+v", ev.Result, ev.Notification)
			}
			got := b.Call(ctx, sellertask.ToolTasksGet, `{"task_id":"`+ev.TaskID+`"}`)
			if got.Err != nil || got.Status != task.Completed || !strings.Contains(string(wire.Lenient(got.Data).Get("result")), `"mb_1"`) {
				t.Fatalf("tasks/get %s: %+v %s", ev.TaskID, got.Err, got.Data)
			}
		})
	}
}

// TestNotifySyncResultsSkipsDiscovery: a synchronous get_products answer is
// never posted, even in a release that marks get_products mutating (3.2,
// simulated here): a guaranteed-sync read stays synchronous without a
// completion webhook (webhook-emission rule 5).
func TestNotifySyncResultsSkipsDiscovery(t *testing.T) {
	rr := newReceiver(t, 0)
	store := sellerstore.NewMemory(nil)
	tasks := sellertask.New(adcpt.Spec(), sellertask.Options{Store: store, Sender: loopbackSender()})
	as32 := func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			c.Tool.Mutating = true
			return next(ctx, c)
		}
	}
	srv, err := seller.New(adcpt.Spec(), seller.Options{
		Schemas: sellertest.Tree(t), ValidateResponses: true, Authenticator: sellerrig.Authenticator(), Tasks: tasks,
		Middleware: []seller.Middleware{as32, tasks.NotifySyncResults()},
	})
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	seller.Handle(srv, adcpt.Tools.GetProducts, func(context.Context, *adcpt.GetProductsRequest) (*adcpt.GetProductsResult, error) {
		calls.Add(1)
		return &adcpt.GetProductsResult{Message: "No products.", Response: &adcpt.GetProductsResponse{Products: []adcpt.Product{}}}, nil
	})
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(context.Context, *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		calls.Add(1)
		return &adcpt.CreateMediaBuyResult{Message: "Created.", Response: success("mb_1")}, nil
	})
	b := sellerrig.ConnectMCP(t, sellerrig.ServeMCP(t, srv), sellerrig.KeyOf("buyer-a"), extract.New(adcpt.Spec()))
	push := `"push_notification_config":{"url":"` + rr.url + `","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + secret + `"}}`
	ctx := t.Context()
	if o := b.Call(ctx, "get_products", `{"buying_mode":"brief","brief":"video",`+push+`}`); o.Err != nil || o.Status != task.Completed || o.TaskID != "" {
		t.Fatalf("get_products %+v %s", o.Err, o.Data)
	}
	// The same server posts a mutating tool's synchronous answer: the
	// skip is get_products', not the rig's.
	if o := b.Call(ctx, "create_media_buy", `{"idempotency_key":"5e0c9a7d-3b1f-4d2e-8c6a-9f1e2d3c4b5b","packages":[{"product_id":"ctv","budget":5000}],`+push+`}`); o.Err != nil {
		t.Fatalf("create_media_buy %+v %s", o.Err, o.Data)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := tasks.Wait(wctx); err != nil {
		t.Fatal(err)
	}
	if n, c := rr.posts.Load(), calls.Load(); n != 1 || c != 2 {
		t.Fatalf("%d posts for %d calls, want 1 (create_media_buy's) for 2", n, c)
	}
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if ev := rr.events[0]; ev.Response == nil || ev.Response.Success == nil || ev.Response.Success.MediaBuyID != "mb_1" {
		t.Fatalf("posted %+v", ev.Result)
	}
}
