package seller

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// CompleteTask records payload, a completed response of the task's tool
// as the buyer's release has it (JSON, without the envelope members the
// framework fills), as the final answer of the task id of principal, and
// so delivers it to the task's webhook like any completion. It is for a
// result the seller did not compute with its typed handlers: AdCP's
// comply_test_controller force_task_completion hands the seller the
// payload to record verbatim (the buyer's release's shape, which a
// bridged handler's release may not hold). The payload's own context is
// kept; one without gets the original request's.
//
// A payload that fails the release's response schema (when the server
// validates responses) is not recorded: the error is a *ResponseError and
// the task stays open. Another principal's task is an error wrapping
// ErrTaskNotFound, a final one ErrTaskEnded. previous is the status the
// task stood at.
func (s *Server) CompleteTask(ctx context.Context, principal, id string, payload json.RawMessage, message string) (previous task.Status, err error) {
	snap, err := s.tasks.Get(ctx, principal, id)
	if err != nil {
		return "", fmt.Errorf("seller: complete task %s: %w", truncateName(id), err)
	}
	if snap.Status.Final() {
		return snap.Status, fmt.Errorf("seller: complete task %s: it is %s: %w", truncateName(id), snap.Status, ErrTaskEnded)
	}
	if !wire.Lenient(payload).IsObject() {
		return snap.Status, fmt.Errorf("seller: complete task %s: the payload is not a JSON object", truncateName(id))
	}
	t, ok := s.spec.Tool(snap.Tool)
	if !ok {
		return snap.Status, fmt.Errorf("seller: complete task %s: AdCP %s has no tool %s", truncateName(id), s.spec.Version(), truncateName(snap.Tool))
	}
	args := snap.Request
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	c, err := s.taskCall(t, snap, principal, args)
	if err != nil {
		return snap.Status, err
	}
	// The answer is the served release's: a bridged task's payload is
	// checked as that release's, not converted from the handler's.
	srv, sc := s, c
	if c.bridged != nil {
		srv, sc = c.bridged.to, c.bridged.call
	}
	a := &Answer{Status: task.Completed, TaskID: snap.ID, Message: message, Body: payload, Release: sc.Release}
	if wire.Lenient(payload).Get("context").Present() {
		a.echoed = sc // the payload's context is the one to send
	}
	out := srv.finish(sc, a)
	if out.Error != nil {
		return snap.Status, fmt.Errorf("seller: complete task %s: the payload cannot be sent: %s", truncateName(id), out.Error.Message)
	}
	if err := srv.checkResponse(sc.Tool, out.Status, out.Body); err != nil {
		return snap.Status, err
	}
	out.TaskID = snap.ID
	return snap.Status, s.tasks.Update(ctx, TaskEvent{ID: snap.ID, Principal: principal, Tool: snap.Tool, Answer: out})
}
