package sellertask_test

import (
	"context"
	"fmt"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// An async create_media_buy: the handler starts a task and answers
// submitted; when the work is done the seller completes the task, and the
// buyer reads the outcome with the version's status tool. The Manager keeps tasks in
// memory by default; Options.Store on sellerstore/pgstore lets replicas
// share them, and Options.Sender posts each update to the buyer's webhook.
func ExampleNew() {
	tasks := sellertask.New(adcpt.Spec(), sellertask.Options{})
	srv, err := seller.New(adcpt.Spec(), seller.Options{Tasks: tasks})
	if err != nil {
		panic(err)
	}
	tasks.ServeStatusTools(srv)
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		if _, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy); err != nil {
			return nil, err
		}
		return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Message: "Queued.", Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
	})

	ctx := context.Background()
	buyer := seller.Principal{ID: "buyer-1"}
	started := srv.Serve(ctx, "create_media_buy", &seller.Call{Principal: buyer,
		Arguments: []byte(`{"idempotency_key":"k-0123456789abcdef","packages":[{"product_id":"p","budget":5}]}`)})
	fmt.Println(started.Status)

	// The work is done: any replica opens the task and completes it.
	h, _, err := seller.OpenTask(ctx, srv, adcpt.Tools.CreateMediaBuy, buyer.ID, started.TaskID)
	if err != nil {
		panic(err)
	}
	resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_1"})
	if err := h.Complete(ctx, &resp, "Booked."); err != nil {
		panic(err)
	}

	got := srv.Serve(ctx, sellertask.ToolTasksGet, &seller.Call{Principal: buyer,
		Arguments: []byte(`{"task_id":"` + started.TaskID + `","include_result":true}`)})
	body := wire.Lenient(got.Body)
	fmt.Println(string(body.Get("status")), string(body.Get("task_type")))
	// Output:
	// submitted
	// "completed" "create_media_buy"
}

// The work of every async create_media_buy done in the background, once:
// Options.Work runs for each open task that no worker holds (as soon as
// the call that started it is recorded, and when its worker's replica
// died), on one replica at a time; seller.WorkOnTask within it reports
// under the task's claim. With sellerstore/pgstore the buy booked through
// pgstore's InTx commits with the task's completion, or not at all.
func ExampleOptions_work() {
	var srv *seller.Server
	done := make(chan string, 1)
	tasks := sellertask.New(adcpt.Spec(), sellertask.Options{
		Work: func(ctx context.Context, principal, id string) error {
			return seller.WorkOnTask(ctx, srv, principal, id, func(ctx context.Context) error {
				h, req, err := seller.OpenTask(ctx, srv, adcpt.Tools.CreateMediaBuy, principal, id)
				if err != nil {
					return err
				}
				// Book the buy here (req is the request that started the task).
				resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_" + req.IdempotencyKey})
				if err := h.Complete(ctx, &resp, "Booked."); err != nil {
					return err
				}
				done <- id
				return nil
			})
		},
	})
	defer tasks.Close(context.Background())
	srv, err := seller.New(adcpt.Spec(), seller.Options{Tasks: tasks})
	if err != nil {
		panic(err)
	}
	tasks.ServeStatusTools(srv)
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		if _, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy); err != nil {
			return nil, err
		}
		return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
	})

	buyer := seller.Principal{ID: "buyer-1"}
	started := srv.Serve(context.Background(), "create_media_buy", &seller.Call{Principal: buyer,
		Arguments: []byte(`{"idempotency_key":"k-0123456789abcdef","packages":[{"product_id":"p","budget":5}]}`)})
	fmt.Println(started.Status, <-done == started.TaskID)
	got := srv.Serve(context.Background(), sellertask.ToolTasksGet, &seller.Call{Principal: buyer,
		Arguments: []byte(`{"task_id":"` + started.TaskID + `"}`)})
	result := wire.Lenient(got.Body).Get("result")
	fmt.Println(string(wire.Lenient(got.Body).Get("status")), string(result.Get("media_buy_id")))
	// Output:
	// submitted true
	// "completed" "mb_k-0123456789abcdef"
}
