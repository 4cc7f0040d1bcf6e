package sellertask_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellerrig"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A task belongs to the store, not to the replica that started it: two
// servers sharing one store, a task started on the first (whose handle
// the test drops, as a replica that died would), is opened on the second
// with the request that started it, reported on and completed there, and
// read back on the first through the status tool, the original request's
// context echoed. Only its principal opens it, and a second completion
// (another replica finishing the same work) is ErrTaskEnded.
func TestTaskOnAnotherReplica(t *testing.T) {
	store := sellerstore.NewMemory(nil)
	replica := func() *seller.Server {
		tasks := sellertask.New(adcpt.Spec(), sellertask.Options{Store: store})
		srv, err := seller.New(adcpt.Spec(), seller.Options{Schemas: sellertest.Tree(t), ValidateResponses: true,
			Authenticator: sellerrig.Authenticator(), Tasks: tasks})
		if err != nil {
			t.Fatal(err)
		}
		seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
			if _, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy); err != nil {
				return nil, err
			}
			return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Message: "Queued.", Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
		})
		tasks.ServeStatusTools(srv)
		return srv
	}
	a, b := replica(), replica()
	ctx := context.Background()
	buyer := seller.Principal{ID: "buyer-a"}
	started := a.Serve(ctx, "create_media_buy", &seller.Call{Principal: buyer, Transport: seller.TransportMCP,
		Arguments: []byte(`{"idempotency_key":"k-0123456789abcdef","po_number":"async-1","packages":[{"product_id":"p","budget":5}],"context":{"trace":"t-7"}}`)})
	if started.Error != nil || started.Status != task.Submitted || started.TaskID == "" {
		t.Fatalf("start: %+v", started)
	}
	id := started.TaskID

	if _, _, err := seller.OpenTask(ctx, b, adcpt.Tools.CreateMediaBuy, "buyer-b", id); !errors.Is(err, seller.ErrTaskNotFound) {
		t.Fatalf("another principal opened the task: %v", err)
	}
	if _, _, err := seller.OpenTask(ctx, b, adcpt.Tools.GetProducts, "buyer-a", id); !errors.Is(err, seller.ErrTaskNotFound) {
		t.Fatalf("the task opened as another tool's: %v", err)
	}
	h, req, err := seller.OpenTask(ctx, b, adcpt.Tools.CreateMediaBuy, "buyer-a", id)
	if err != nil {
		t.Fatal(err)
	}
	if h.ID() != id || req == nil || req.PoNumber == nil || *req.PoNumber != "async-1" || len(req.Packages) != 1 {
		t.Fatalf("opened %s with request %+v", h.ID(), req)
	}
	pct := 40.0
	if err := h.Working(ctx, &adcpt.CreateMediaBuyWorking{Percentage: &pct}, "Checking inventory."); err != nil {
		t.Fatal(err)
	}
	resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_7"})
	if err := h.Complete(ctx, &resp, "Approved."); err != nil {
		t.Fatal(err)
	}
	if err := h.Complete(ctx, &resp, "Approved twice."); !errors.Is(err, seller.ErrTaskEnded) {
		t.Fatalf("a second completion: %v, want ErrTaskEnded", err)
	}
	if _, _, err := seller.OpenTask(ctx, a, adcpt.Tools.CreateMediaBuy, "buyer-a", id); !errors.Is(err, seller.ErrTaskEnded) {
		t.Fatalf("opening an ended task: %v, want ErrTaskEnded", err)
	}
	if string(h.Request()) != `{"idempotency_key":"k-0123456789abcdef","po_number":"async-1","packages":[{"product_id":"p","budget":5}],"context":{"trace":"t-7"}}` {
		t.Fatalf("the handle's request: %s", h.Request())
	}

	got := a.Serve(ctx, "tasks/get", &seller.Call{Principal: buyer, Transport: seller.TransportMCP, Arguments: []byte(`{"task_id":"` + id + `"}`)})
	result := wire.Lenient(got.Body).Get("result")
	if got.Error != nil || !wire.Lenient(got.Body).Get("status").StringIs("completed") || !result.Get("media_buy_id").StringIs("mb_7") ||
		string(result.Get("context")) != `{"trace":"t-7"}` || !result.Get("task_id").StringIs(id) || !result.Get("message").StringIs("Approved.") {
		t.Fatalf("tasks/get on the first replica: %+v %s", got.Error, got.Body)
	}
	if strings.Contains(string(got.Body), "twice") {
		t.Fatalf("the second completion was recorded: %s", got.Body)
	}
}
