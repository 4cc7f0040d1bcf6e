package seller_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// A task started by one replica and finished by another: both servers use
// one TaskManager (here runtime/sellertask's Manager on its in-memory
// store; in production on sellerstore/pgstore). The handler only
// starts the task; whichever replica learns the work is done opens the
// task by its principal and id, with the request that started it, and
// completes it. The submitted answer's envelope (status, task_id) is the
// framework's.
func ExampleOpenTask() {
	tasks := sellertask.New(adcpt.Spec(), sellertask.Options{})
	replica := func() *seller.Server {
		srv, _ := seller.New(adcpt.Spec(), seller.Options{Tasks: tasks})
		seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
			if _, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy); err != nil {
				return nil, err
			}
			return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Message: "Queued.", Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
		})
		return srv
	}
	a, b := replica(), replica()
	ctx := context.Background()
	started := a.Serve(ctx, "create_media_buy", &seller.Call{Principal: seller.Principal{ID: "buyer-1"},
		Arguments: []byte(`{"idempotency_key":"k-0123456789abcdef","po_number":"PO-7","packages":[{"product_id":"p","budget":5}]}`)})
	fmt.Println(started.Status, string(started.Body) == `{"adcp_version":"3.90-test","status":"submitted","task_id":"`+started.TaskID+`","message":"Queued."}`)

	h, req, err := seller.OpenTask(ctx, b, adcpt.Tools.CreateMediaBuy, "buyer-1", started.TaskID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("po_number", *req.PoNumber)
	resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_7"})
	fmt.Println(h.Complete(ctx, &resp, "Approved."))
	fmt.Println(errors.Is(h.Complete(ctx, &resp, "Again."), seller.ErrTaskEnded))

	snap, _ := tasks.Get(ctx, "buyer-1", started.TaskID)
	fmt.Println(snap.Status, strings.Replace(string(snap.Answer.Body), started.TaskID, "ID", 1))
	// Output:
	// submitted true
	// po_number PO-7
	// <nil>
	// true
	// completed {"adcp_version":"3.90-test","status":"completed","task_id":"ID","message":"Approved.","media_buy_id":"mb_7"}
}
