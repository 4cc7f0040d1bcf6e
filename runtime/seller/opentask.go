package seller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/registry"
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
// wrapping ErrTaskEnded. When the work that finishes a task must run once
// (a buy), do it in WorkOnTask, which claims it.
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
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	c, err := srv.taskCall(t, snap, principal, args)
	if err != nil {
		return nil, nil, err
	}
	if len(snap.Request) > 0 {
		if req, err = decodeTaskRequest[Q](srv, c); err != nil {
			return nil, nil, fmt.Errorf("seller: open task %s: its request: %w", truncateName(id), err)
		}
	}
	return &TaskHandle[R, S, W, I]{srv: srv, id: snap.ID, principal: principal, call: c}, req, nil
}

// decodeTaskRequest reads a task's stored request as the handler's
// request: strictly, as the call that started it was read (the
// negotiation's member aside, a bridged call's shim applied).
func decodeTaskRequest[Q any](srv *Server, c *Call) (*Q, error) {
	if c.entry == nil || c.entry.decode == nil {
		req := new(Q)
		d, ok := any(req).(wire.Decodable)
		if !ok {
			return nil, fmt.Errorf("%T cannot decode itself", req)
		}
		return req, wire.Unmarshal(c.Arguments, d)
	}
	if a := srv.readRequest(c); a != nil {
		if a.Error != nil {
			return nil, errors.New(a.Error.Message)
		}
		return nil, errors.New("refused")
	}
	req, ok := c.request.(*Q)
	if !ok {
		return nil, fmt.Errorf("the tool's request is %T, not %T", c.request, new(Q))
	}
	return req, nil
}

// taskCall is the call a reopened task reports through: in srv's release,
// or, for a task that answers in another release through srv's handlers
// (Bridge), the call of srv's release bridged to that release's.
func (s *Server) taskCall(t registry.Tool, snap TaskSnapshot, principal string, args json.RawMessage) (*Call, error) {
	rel := s.taskRelease(snap)
	c := &Call{Tool: t, Arguments: args, Principal: Principal{ID: principal}, Release: rel, srv: s, entry: s.entryOf(t.Name)}
	if rel == "" || rel == s.Release() {
		return c, nil
	}
	for _, r := range s.group.servers {
		if r.Release() != rel {
			continue
		}
		re := r.entryOf(t.Name)
		if re == nil || re.bridge == nil || re.bridge.from != s {
			break
		}
		rc := &Call{Tool: re.tool, Arguments: args, Principal: c.Principal, Release: rel, srv: r, entry: re}
		return re.bridge.handlerCall(r, rc), nil
	}
	return nil, fmt.Errorf("seller: open task %s: it answers in AdCP %s, whose server does not serve %s through the handlers of %s: open it with that release's server and tool",
		truncateName(snap.ID), rel, t.Name, s.Release())
}

// entryOf is the entry of a tool s serves, nil when none.
func (s *Server) entryOf(name string) *entry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.tools[name]
}

// TaskWorker is a TaskManager that lets one worker at a time, across
// replicas, do a task's work (runtime/sellertask's Manager, and the
// server's default in-memory manager).
type TaskWorker interface {
	// Work runs fn holding the claim on the work of the task id of
	// principal: an error wrapping ErrTaskBusy when another worker holds
	// it, ErrTaskEnded when the task is final, ErrTaskNotFound when it is
	// not principal's. fn's context carries the claim: the task's updates
	// made with it apply only while the claim holds. A context that holds
	// the claim already (Work within Work) runs fn in it.
	Work(ctx context.Context, principal, id string, fn func(ctx context.Context) error) error
}

// WorkOnTask does the work that finishes a task once, however many
// replicas race to: it claims the task's work (the claim has a lease its
// worker renews, so a worker whose replica died is taken over once the
// lease lapses) and runs fn, which opens the task (OpenTask with fn's
// context) and reports on it. Reports made with fn's context (h.Complete,
// h.Fail, progress) apply only while the claim holds, so a worker taken
// over cannot finish the task; with a store that has units of work
// (pgstore) fn runs in one, committed when fn returns nil: the seller's
// own writes made through pgstore's InTx (the buy) commit with the task's
// final answer and its webhook, or not at all. An error of fn rolls the
// unit back and is returned.
//
// A task another worker holds returns an error wrapping ErrTaskBusy, a
// final one ErrTaskEnded, another principal's ErrTaskNotFound: nothing to
// do. The server's TaskManager must be a TaskWorker.
func WorkOnTask(ctx context.Context, srv *Server, principal, id string, fn func(ctx context.Context) error) error {
	if srv == nil {
		return errors.New("seller: WorkOnTask without a server")
	}
	w, ok := srv.tasks.(TaskWorker)
	if !ok {
		return fmt.Errorf("seller: the TaskManager (%T) cannot claim a task's work", srv.tasks)
	}
	return w.Work(ctx, principal, id, fn)
}
