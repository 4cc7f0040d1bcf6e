package sellertask_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// onlyStart is a TaskManager that cannot start a task under a given id.
type onlyStart struct{ seller.TaskManager }

// TestStartTaskWithID: a handler starts its task under the id it was
// given (here, the request's po_number), with either TaskManager: the
// answer and tasks/get use that id; an id taken, by the same principal or
// another, an id that is not text, and a TaskManager that cannot do it are
// errors the handler sees.
func TestStartTaskWithID(t *testing.T) {
	managers := map[string]func() seller.TaskManager{
		"the server's own": func() seller.TaskManager { return nil },
		"Manager":          func() seller.TaskManager { return sellertask.New(adcpt.Spec(), sellertask.Options{}) },
	}
	for name, newManager := range managers {
		t.Run(name, func(t *testing.T) {
			tasks := newManager()
			srv, err := seller.New(adcpt.Spec(), seller.Options{Tasks: tasks})
			if err != nil {
				t.Fatal(err)
			}
			var startErr error
			seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
				h, err := seller.StartTaskWithID(ctx, adcpt.Tools.CreateMediaBuy, *req.PoNumber)
				if err == nil {
					// Asked again in the same call: the same task.
					again, err2 := seller.StartTaskWithID(ctx, adcpt.Tools.CreateMediaBuy, *req.PoNumber)
					if err2 != nil || again.ID() != h.ID() {
						t.Errorf("the same id twice in one call: %v", err2)
					}
				}
				if startErr = err; err != nil {
					return nil, &adcperr.Error{Code: "INVALID_REQUEST", Message: "no task"}
				}
				return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
			})
			call := func(principal, id string) *seller.Answer {
				args, _ := json.Marshal(map[string]any{"idempotency_key": "k-0123456789abcdef", "po_number": id, "packages": []any{map[string]any{"product_id": "p", "budget": 1}}})
				return srv.Serve(context.Background(), "create_media_buy", &seller.Call{Principal: seller.Principal{ID: principal}, Arguments: args})
			}
			if a := call("alice", "task_forced_1"); a.Error != nil || a.Status != task.Submitted || a.TaskID != "task_forced_1" {
				t.Fatalf("forced id: %+v", a)
			}
			if snap, err := srv.Tasks().Get(context.Background(), "alice", "task_forced_1"); err != nil || snap.Status != task.Submitted {
				t.Fatalf("the forced task: %+v %v", snap, err)
			}
			for _, c := range []struct{ name, principal, id string }{
				{"taken by the same principal", "alice", "task_forced_1"},
				{"taken by another principal", "bob", "task_forced_1"},
			} {
				if a := call(c.principal, c.id); a.Error == nil || !errors.Is(startErr, seller.ErrTaskIDTaken) {
					t.Errorf("%s: %+v %v", c.name, a, startErr)
				}
			}
			for _, id := range []string{"", strings.Repeat("x", seller.MaxTaskIDLength+1), "a\x00b"} {
				if a := call("alice", id); a.Error == nil || startErr == nil || errors.Is(startErr, seller.ErrTaskIDTaken) {
					t.Errorf("id %q: %+v %v", id, a, startErr)
				}
			}
			if _, err := srv.Tasks().Get(context.Background(), "bob", "task_forced_1"); !errors.Is(err, seller.ErrTaskNotFound) {
				t.Errorf("bob read alice's task: %v", err)
			}
		})
	}
	t.Run("a manager without ids", func(t *testing.T) {
		srv, _ := seller.New(adcpt.Spec(), seller.Options{Tasks: onlyStart{sellertask.New(adcpt.Spec(), sellertask.Options{})}})
		var got error
		seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, _ *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
			_, got = seller.StartTaskWithID(ctx, adcpt.Tools.CreateMediaBuy, "task_x")
			return nil, &adcperr.Error{Code: "INVALID_REQUEST", Message: "no task"}
		})
		srv.Serve(context.Background(), "create_media_buy", &seller.Call{Arguments: json.RawMessage(`{"idempotency_key":"k-0123456789abcdef","packages":[{"product_id":"p","budget":1}]}`)})
		if got == nil || !strings.Contains(got.Error(), "cannot start a task under a given id") {
			t.Errorf("error %v", got)
		}
	})
}
