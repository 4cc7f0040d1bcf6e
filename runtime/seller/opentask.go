package seller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// OpenTask returns the handle of the task id of principal, started by a
// call of tool on any replica, and the request that started it, decoded
// strictly: a task belongs to the server's TaskManager (its store), not to
// the process whose handler started it. With replicas sharing a store
// (runtime/sellertask's Manager on sellerstore/pgstore), whichever replica
// learns that the task's work is done (an upstream callback, a queue, a
// buyer's status poll through sellertask's Refresh hook) reports it here;
// and a task whose replica died is taken over the same way: its request is
// all the work needs to start again.
//
// The handle reports as a handler's does (Working, InputRequired,
// Complete, Fail), with the original request's context echoed. principal
// is the task's owner (the Principal.ID of the call that started it, ""
// for an anonymous one): a task of another principal, or of another tool,
// is reported exactly like a missing one, as an error wrapping
// ErrTaskNotFound; a task that ended is an error wrapping ErrTaskEnded.
// req is nil when the TaskManager kept no request (a task
// started before it did).
//
// Two replicas may both try to finish a task: the store lets one final
// update through, and the other's Complete or Fail returns an error
// wrapping ErrTaskEnded, which is safe to ignore. Make the work itself
// idempotent, or claim it (a lease in your own store), when doing it twice
// costs.
func OpenTask[Q, R, S, W, I any](ctx context.Context, srv *Server, tool task.Tool[Q, R, S, W, I], principal, id string) (h *TaskHandle[R, S, W, I], req *Q, err error) {
	if srv == nil {
		return nil, nil, errors.New("seller: OpenTask without a server")
	}
	t, ok := srv.spec.Tool(tool.Name())
	if !ok || tool.Version() != srv.spec.Version() {
		return nil, nil, fmt.Errorf("seller: OpenTask for %s %s on a server of %s", tool.Name(), tool.Version(), srv.spec.Version())
	}
	snap, err := srv.tasks.Get(ctx, principal, id)
	if err != nil {
		return nil, nil, fmt.Errorf("seller: open task %s: %w", truncateName(id), err)
	}
	if snap.Tool != tool.Name() {
		return nil, nil, fmt.Errorf("seller: open task %s: %w", truncateName(id), ErrTaskNotFound)
	}
	if snap.Status.Final() {
		return nil, nil, fmt.Errorf("seller: open task %s: it is %s: %w", truncateName(id), snap.Status, ErrTaskEnded)
	}
	args := snap.Request
	if len(args) > 0 {
		req = new(Q)
		d, ok := any(req).(wire.Decodable)
		if !ok {
			return nil, nil, fmt.Errorf("seller: %T cannot decode itself", req)
		}
		if err := wire.Unmarshal(args, d); err != nil {
			return nil, nil, fmt.Errorf("seller: open task %s: its request: %w", truncateName(id), err)
		}
	} else {
		args = json.RawMessage("{}")
	}
	c := &Call{Tool: t, Arguments: args, Principal: Principal{ID: principal}, srv: srv}
	return &TaskHandle[R, S, W, I]{srv: srv, id: snap.ID, principal: principal, call: c}, req, nil
}
