package buyer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Invoke calls the tool named tool with args (a JSON object; nil means {})
// and returns what the answer says, without generated types: the untyped
// core of Call, for a client that knows tools only by name (a command-line
// client printing JSON). The request gets the idempotency key, context id
// and retries Call gives it. args are checked strictly (wire.Valid) and,
// when the spec has a type for the tool's request, decoded strictly into
// it; the answer's payload is checked strictly and, when the spec has a
// type for it (the response, or the interim payload of the status), decoded
// strictly into it. With WaitForCompletion, a submitted or working answer
// is followed to its end.
func (c *Client) Invoke(ctx context.Context, tool string, args json.RawMessage, opts ...CallOption) (*Reply, error) {
	s := c.settings(opts)
	if args == nil {
		args = json.RawMessage(`{}`)
	}
	if err := wire.Valid(args); err != nil {
		return nil, fmt.Errorf("buyer: %s: request: %w", tool, err)
	}
	s.checkRequest = true
	out, err := c.call(ctx, tool, args, s)
	if err != nil {
		return nil, err
	}
	if err := c.checkPayload(out); err != nil {
		return nil, err
	}
	if s.wait && (out.Status == task.Submitted || out.Status == task.Working) {
		if out, err = c.await(ctx, out, s); err != nil {
			return nil, err
		}
		if err := c.checkPayload(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkPayload checks a reply's data strictly, decoding it into the type
// the release it was served in gives it (the pin's, without an echo) when
// the client holds that release's Spec; else it checks the JSON alone.
func (c *Client) checkPayload(out *Reply) error {
	if out.Data == nil {
		return nil
	}
	s := c.spec
	if out.Release != "" && !c.rel.IsZero() && out.Release != c.rel.String() {
		s = c.heldSpec(out.Release)
	}
	var v wire.Value
	if s != nil {
		v = payloadValue(s, out)
	}
	var err error
	if v != nil {
		err = wire.Unmarshal(out.Data, v)
	} else {
		err = wire.Valid(out.Data)
	}
	if err != nil {
		pe := &SellerDataError{Tool: out.Tool, Source: out.DataPath, Err: err}
		if v != nil {
			pe.Type = fmt.Sprintf("%T", v)
		}
		return pe
	}
	return nil
}

// call sends one tool call, with the client's idempotency, conversation
// and retry rules, and reads the answer's status. args must be valid JSON.
func (c *Client) call(ctx context.Context, tool string, args []byte, s callSettings) (*Reply, error) {
	if c.obs == nil {
		return c.send(ctx, tool, args, s)
	}
	op := &observe.Op{Kind: observe.SendCall, Tool: tool, Transport: string(c.transport.Protocol()), Release: c.spec.Version()}
	ctx, end := c.obs.Start(ctx, op)
	out, err := c.send(ctx, tool, args, s)
	c.ended(op, out, err)
	end()
	return out, err
}

// send is call, unobserved.
func (c *Client) send(ctx context.Context, tool string, args []byte, s callSettings) (*Reply, error) {
	if err := c.signingReady(ctx, tool); err != nil {
		return nil, err
	}
	info, known := c.spec.Tool(tool)
	req, err := requestObject(args)
	if err != nil {
		return nil, fmt.Errorf("buyer: %s: request: %w", tool, err)
	}
	req, key, err := c.prepare(tool, info, req, s)
	if err != nil {
		return nil, err
	}
	if !s.noPin {
		if err := c.preflight(tool); err != nil {
			return nil, err
		}
		req = c.withPin(info, req)
	}
	if s.checkRequest && info.NewRequest != nil {
		// JSON from outside: the request type's strict decoder judges it,
		// idempotency key included.
		if err := wire.Unmarshal(req, info.NewRequest()); err != nil {
			return nil, fmt.Errorf("buyer: %s: request: %w", tool, err)
		}
	}
	contextID, inputTask := s.conv.state()
	tc := ToolCall{Tool: tool}
	if contextID != "" {
		if c.transport.Protocol() == A2A {
			tc.ContextID, tc.TaskID = contextID, inputTask
		} else if c.contextAllowed(info) && !req.Get(contextMember).Present() {
			req = withMember(req, contextMember, wire.AppendQuoted(nil, contextID))
		}
	}
	tc.Args = json.RawMessage(req)
	// A mutating call is retried only with an idempotency key: without one,
	// a second attempt could run the operation twice.
	safe := key != "" || (known && !info.Mutating)
	out, err := c.attempts(ctx, tool, tc, s, safe, func(ex *Exchange) (*Reply, error) { return c.detect(tool, ex) })
	if err != nil {
		return nil, err
	}
	out.IdempotencyKey = key
	out.Release = echoOf(out.Data)
	s.conv.observe(out)
	return out, nil
}

// prepare adds the idempotency key a tool needs and returns the key the
// request carries ("" for none).
func (c *Client) prepare(tool string, info registry.Tool, req wire.Lenient, s callSettings) (wire.Lenient, string, error) {
	if info.IdempotencyRequired || s.key != "" {
		out, key, err := withIdempotencyKey(req, s.key)
		if err != nil {
			return nil, "", fmt.Errorf("buyer: %s: request: %w", tool, err)
		}
		return out, key, nil
	}
	key, _ := req.Get(idempotencyMember).AsString()
	return req, key, nil
}

// attempts runs the call under the retry policy: transient AdCP errors
// and transport failures are retried when safe allows.
func (c *Client) attempts(ctx context.Context, tool string, tc ToolCall, s callSettings, safe bool, read func(*Exchange) (*Reply, error)) (*Reply, error) {
	policy := c.retry
	if s.retry != nil {
		policy = *s.retry
	}
	if s.noRetry {
		policy.MaxAttempts = 1
	}
	custom := policy.Retryable
	policy.Retryable = func(err error) (time.Duration, bool) {
		wait, ok := retryable(err, safe)
		if ok && custom != nil {
			return custom(err)
		}
		return wait, ok
	}
	if c.obs != nil {
		c.obs.Inject(ctx, func(k, v string) {
			if tc.Trace == nil {
				tc.Trace = make(map[string]string, 2)
			}
			tc.Trace[k] = v
		})
	}
	var out *Reply
	n := 0
	err := policy.Do(ctx, func(ctx context.Context, attempt int) error {
		n = attempt
		ex, err := c.transport.CallTool(ctx, tc)
		if err != nil {
			return err
		}
		if ex == nil || ex.Envelope == nil {
			return fmt.Errorf("transport %T returned no envelope", c.transport)
		}
		o, err := read(ex)
		if err != nil {
			return err
		}
		out = o
		return nil
	})
	if err != nil {
		var pe *SellerDataError
		var te *TaskError
		if errors.As(err, &pe) || errors.As(err, &te) {
			return nil, err // already say the tool
		}
		return nil, fmt.Errorf("buyer: %s: %w", tool, err)
	}
	out.Attempts = n
	return out, nil
}

// retryable is the client's retry rule: a transient AdCP error (waiting
// its retry_after) or a transient transport failure, and only when a
// second attempt cannot run a mutating operation twice.
func retryable(err error, safe bool) (time.Duration, bool) {
	var ae *adcperr.Error
	if errors.As(err, &ae) {
		return ae.RetryAfter, safe && ae.Recovery == registry.Transient
	}
	var te *TransportError
	if errors.As(err, &te) {
		return 0, te.Transient() && (safe || !te.Sent)
	}
	return 0, false
}
