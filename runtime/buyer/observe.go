package buyer

import (
	"context"
	"errors"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// pollOnce reads a task's state once through the client's TaskPoller,
// observed as a PollTask operation.
func (c *Client) pollOnce(ctx context.Context, ref TaskRef) (*Reply, error) {
	if c.obs == nil {
		return c.poller.PollTask(ctx, c, ref)
	}
	op := &observe.Op{Kind: observe.PollTask, Tool: ref.Tool, TaskID: ref.TaskID, Transport: string(c.transport.Protocol()), Release: c.spec.Version()}
	ctx, end := c.obs.Start(ctx, op)
	out, err := c.poller.PollTask(ctx, c, ref)
	if err == nil && out.failure != nil {
		c.ended(op, nil, out.failure)
	} else {
		c.ended(op, out, err)
	}
	end()
	return out, err
}

// ended sets an operation's outcome from what a call or poll came to. An
// error code is one the spec lists, else "_OTHER": what a seller sends is
// no bounded set of attribute values.
func (c *Client) ended(op *observe.Op, out *Reply, err error) {
	if out != nil && err == nil {
		op.Status, op.Attempts = string(out.Status), out.Attempts
		// Only a call with an idempotency key is replayed: the others'
		// payloads (a large get_products) are not scanned for the member.
		op.Replayed = out.IdempotencyKey != "" && string(wire.Lenient(out.Data).Get("replayed")) == "true"
		return
	}
	var ae *adcperr.Error
	var te *TaskError
	switch {
	case errors.As(err, &ae):
		op.Status, op.Code, op.Recovery = string(task.Failed), "_OTHER", string(ae.Recovery)
		if _, ok := c.spec.Recovery(ae.Code); ok {
			op.Code = ae.Code
		}
	case errors.As(err, &te):
		op.Status, op.Err = string(te.Status), err
	default:
		op.Err = err
	}
}
