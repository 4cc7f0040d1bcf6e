package webhook

import (
	"context"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Event is a notification about one tool's task, typed by the tool's
// response (R) and submitted, working and input-required payloads (S, W,
// I), as a generated package's task.Tool descriptor names them. Result
// holds the status, the ids and exactly one payload when the post carried
// one: Response for a final status, Submitted, Working or InputRequired for
// an interim one.
type Event[R, S, W, I any] struct {
	task.Result[R, S, W, I]
	// Err is the AdCP error a failed task reported, nil otherwise.
	Err *adcperr.Error
	// Notification is everything the post carried (task type, operation
	// id, timestamp, the raw body).
	Notification *Notification
}

// On registers fn for the notifications of one tool, typed: fn gets an
// Event whose Response, Submitted, Working and InputRequired are the
// tool's generated types, decoded strictly from the bytes posted.
//
// It fails when the descriptor is of another spec version than the
// receiver's, or when the spec resolves one of the tool's payloads to
// another type than the descriptor's (task_result_resolution may give a
// task type a terminal schema of its own; use Handle for those).
func On[Q, R, S, W, I any](rc *Receiver, tool task.Tool[Q, R, S, W, I], fn func(context.Context, *Event[R, S, W, I]) error) error {
	if tool.Version() != rc.spec.Version() {
		return fmt.Errorf("webhook: tool %s is from AdCP %s, the receiver's spec is %s", tool.Name(), tool.Version(), rc.spec.Version())
	}
	for _, st := range []task.Status{task.Completed, task.Submitted, task.Working, task.InputRequired} {
		newValue, ok := rc.resultType(tool.Name(), st)
		if !ok {
			return fmt.Errorf("webhook: AdCP %s has no tool %s", rc.spec.Version(), tool.Name())
		}
		if err := checkType(newValue, st, tool.Name(), new(R), new(S), new(W), new(I)); err != nil {
			return err
		}
	}
	rc.Handle(tool.Name(), func(ctx context.Context, n *Notification) error {
		ev := &Event[R, S, W, I]{Err: n.Err, Notification: n}
		ev.Status, ev.TaskID, ev.ContextID, ev.Message = n.Status, n.TaskID, n.ContextID, n.Message
		if n.Payload != nil {
			// The types were checked at registration: the assertion for the
			// status holds.
			switch {
			case n.Status.Final():
				ev.Response, _ = n.Payload.(any).(*R)
			case n.Status == task.Submitted:
				ev.Submitted, _ = n.Payload.(any).(*S)
			case n.Status == task.Working:
				ev.Working, _ = n.Payload.(any).(*W)
			case n.Status == task.InputRequired:
				ev.InputRequired, _ = n.Payload.(any).(*I)
			}
		}
		return fn(ctx, ev)
	})
	return nil
}

// checkType reports a spec constructor whose value is not the descriptor's
// type for the status.
func checkType(newValue func() wire.Value, st task.Status, tool string, r, s, w, i any) error {
	want := map[task.Status]any{task.Completed: r, task.Submitted: s, task.Working: w, task.InputRequired: i}[st]
	if newValue == nil {
		if _, none := want.(*task.None); none {
			return nil
		}
		return fmt.Errorf("webhook: AdCP has no %s payload for %s, the descriptor has %T", st, tool, want)
	}
	got := newValue()
	if fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
		return fmt.Errorf("webhook: the spec gives %s's %s payload the type %T, the descriptor %T", tool, st, got, want)
	}
	return nil
}
