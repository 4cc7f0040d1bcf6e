package pgstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/storetest"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// replica is one seller process: its own pool and store on the shared
// database, the idempotency layer and the task manager on it, and a
// create_media_buy handler that counts its runs across replicas.
func replica(t *testing.T, store sellerstore.Store, runs *atomic.Int64) *seller.Server {
	t.Helper()
	spec := adcpt.Spec() // AdCP 3.0's codes: a key in flight waits and replays
	layer := idempotency.New(spec, store, idempotency.Options{PollInterval: 10 * time.Millisecond})
	tasks := sellertask.New(spec, sellertask.Options{Store: store})
	srv, err := seller.New(spec, seller.Options{Middleware: []seller.Middleware{layer.Middleware()}, Tasks: tasks})
	if err != nil {
		t.Fatal(err)
	}
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		n := runs.Add(1)
		time.Sleep(50 * time.Millisecond) // long enough for every replica's calls to meet it in flight
		if req.PoNumber != nil && *req.PoNumber == "async" {
			h, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy)
			if err != nil {
				return nil, err
			}
			return &adcpt.CreateMediaBuyResult{Status: task.Submitted, TaskID: h.ID(), Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
		}
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: fmt.Sprintf("mb_%d", n)})
		return &adcpt.CreateMediaBuyResult{Response: &resp}, nil
	})
	tasks.ServeStatusTools(srv)
	return srv
}

// Two seller replicas on one database agree: the same idempotency key
// sent to both, 50 calls at once, runs the handler once, and every caller
// gets its answer; a task started on one is read on the other.
func TestTwoServersOneDatabase(t *testing.T) {
	var runs atomic.Int64
	a := replica(t, freshStore(t, pool(t), nil), &runs)
	b := replica(t, pgstore.New(pool(t), nil), &runs)
	servers := []*seller.Server{a, b}
	call := func(i int, args string) *seller.Answer {
		return servers[i%2].Serve(context.Background(), "create_media_buy", &seller.Call{
			Arguments: json.RawMessage(args), Principal: seller.Principal{ID: "buyer-a"}, Transport: seller.TransportMCP})
	}
	const args = `{"idempotency_key":"3f0c8a1e-2b7d-4e5f-9a6b-1c2d3e4f5a6b","packages":[{"product_id":"ctv","budget":5000}]}`
	answers := make([]*seller.Answer, storetest.Concurrency)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = call(i, args) })
	}
	wg.Wait()
	replayed := 0
	for i, ans := range answers {
		var buy struct {
			MediaBuyID string `json:"media_buy_id"`
		}
		if ans.Error != nil || json.Unmarshal(ans.Body, &buy) != nil || buy.MediaBuyID != "mb_1" {
			t.Fatalf("call %d on replica %d: %s %v", i, i%2, ans.Body, ans.Error)
		}
		if ans.Replayed {
			replayed++
		}
	}
	if n := runs.Load(); n != 1 || replayed != len(answers)-1 {
		t.Fatalf("the handler ran %d times; %d answers replayed", n, replayed)
	}

	sub := call(0, `{"idempotency_key":"9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a","po_number":"async","packages":[{"product_id":"ctv","budget":1}]}`)
	if sub.Status != task.Submitted || sub.TaskID == "" {
		t.Fatalf("async: %s %s %v", sub.Status, sub.Body, sub.Error)
	}
	got := b.Serve(context.Background(), sellertask.ToolTasksGet, &seller.Call{
		Arguments: json.RawMessage(`{"task_id":"` + sub.TaskID + `"}`), Principal: seller.Principal{ID: "buyer-a"}})
	if got.Error != nil || !json.Valid(got.Body) || string(got.Body) == "" {
		t.Fatalf("tasks/get on the other replica: %s %v", got.Body, got.Error)
	}
	var status struct{ Status string }
	if err := json.Unmarshal(got.Body, &status); err != nil || status.Status != "submitted" {
		t.Fatalf("tasks/get on the other replica: %s", got.Body)
	}
	other := b.Serve(context.Background(), sellertask.ToolTasksGet, &seller.Call{
		Arguments: json.RawMessage(`{"task_id":"` + sub.TaskID + `"}`), Principal: seller.Principal{ID: "buyer-b"}})
	if other.Error == nil {
		t.Fatalf("buyer-b read buyer-a's task: %s", other.Body)
	}
}
