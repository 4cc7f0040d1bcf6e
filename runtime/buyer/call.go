package buyer

import (
	"context"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Call calls one tool of the client's spec version with a typed request
// and returns its typed result (ExampleCall: a call and each kind of
// answer).
//
// The request is encoded by its strict encoder before anything is sent (a
// value it cannot encode is an error naming the field, and nothing is
// sent); a tool that requires one gets an idempotency_key; transient
// failures are retried when that is safe (see WithRetryPolicy). The
// seller's answer is read from its exact bytes: res.Status is the task
// status, res.Response the decoded response of a final answer, and
// res.Submitted, res.Working or res.InputRequired the decoded interim
// payload (nil when the spec gives the tool none, task.None, or the seller
// sent none), with res.TaskID to poll. WaitForCompletion follows a
// submitted or working task to its end.
//
// Errors: an AdCP error the seller sent is an *adcperr.Error (errors.As;
// its Action says what to do); seller bytes the strict decoders refuse are
// a *SellerDataError wrapping the *wire.DecodeError with its JSON pointer; a
// task that ended without a result is a *TaskError; a failure to reach
// the seller wraps a *TransportError; a descriptor of another spec version
// wraps ErrVersion; a call the seller does not serve in the client's
// release is a *VersionError, an answer it served in another release a
// *ReleaseError (see Releases and Pin).
func Call[Q, R, S, W, I any, PQ interface {
	*Q
	wire.Encodable
}, PR interface {
	*R
	wire.Decodable
}](ctx context.Context, c *Client, tool task.Tool[Q, R, S, W, I], req PQ, opts ...CallOption) (*task.Result[R, S, W, I], error) {
	if err := c.checkVersion(tool.Name(), tool.Version()); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, fmt.Errorf("buyer: %s: nil request", tool.Name())
	}
	args, err := encodeRequest(tool.Name(), req)
	if err != nil {
		return nil, err
	}
	s := c.settings(opts)
	out, err := c.call(ctx, tool.Name(), args, s)
	if err != nil {
		return nil, err
	}
	if err := c.checkRelease(out); err != nil {
		return nil, err
	}
	if s.wait && (out.Status == task.Submitted || out.Status == task.Working) {
		// The interim payload is checked even when the caller waits past it.
		if _, err := decodeResult[R, S, W, I, PR](out); err != nil {
			return nil, err
		}
		if out, err = c.await(ctx, out, s); err != nil {
			return nil, err
		}
		if err := c.checkRelease(out); err != nil {
			return nil, err
		}
	}
	return decodeResult[R, S, W, I, PR](out)
}

// Wait polls the task taskID of tool until it completes, fails, is
// canceled or rejected, or asks for input, and returns the typed result:
// the tool's response once the task completed, the status (with no
// interim payload: status tools report none) when it asks for input. The
// first poll comes after the client's polling interval; ctx bounds the
// wait.
func Wait[Q, R, S, W, I any, PR interface {
	*R
	wire.Decodable
}](ctx context.Context, c *Client, tool task.Tool[Q, R, S, W, I], taskID string, opts ...CallOption) (*task.Result[R, S, W, I], error) {
	if err := c.checkVersion(tool.Name(), tool.Version()); err != nil {
		return nil, err
	}
	out, err := c.await(ctx, &Reply{Tool: tool.Name(), TaskID: taskID, Status: task.Submitted}, c.settings(opts))
	if err != nil {
		return nil, err
	}
	if err := c.checkRelease(out); err != nil {
		return nil, err
	}
	return decodeResult[R, S, W, I, PR](out)
}

func (c *Client) checkVersion(tool, version string) error {
	if version != c.spec.Version() {
		return fmt.Errorf("buyer: %s: %w: the descriptor is of %q, the client's spec %q", tool, ErrVersion, version, c.spec.Version())
	}
	return nil
}

// decodeResult decodes a reply's payload into the type its status
// calls for.
func decodeResult[R, S, W, I any, PR interface {
	*R
	wire.Decodable
}](out *Reply) (*task.Result[R, S, W, I], error) {
	res := &task.Result[R, S, W, I]{Status: out.Status, TaskID: out.TaskID, ContextID: out.ContextID, Message: out.Message}
	var err error
	switch out.Status {
	case task.Submitted:
		res.Submitted, err = decodeInterim[S](out)
	case task.Working:
		res.Working, err = decodeInterim[W](out)
	case task.InputRequired:
		res.InputRequired, err = decodeInterim[I](out)
	case task.AuthRequired:
		err = checkData(out)
	default:
		if out.Data == nil {
			return nil, &TaskError{Tool: out.Tool, TaskID: out.TaskID, Status: out.Status, Message: out.Message, Err: ErrNoResult}
		}
		r := new(R)
		if err := wire.Unmarshal(out.Data, PR(r)); err != nil {
			return nil, &SellerDataError{Tool: out.Tool, Source: out.DataPath, Type: fmt.Sprintf("%T", r), Err: err}
		}
		res.Response = r
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// decodeInterim decodes an interim payload into T, or, when T is
// task.None (the spec gives no payload for the status), only checks it.
func decodeInterim[T any](out *Reply) (*T, error) {
	if out.Data == nil {
		return nil, nil
	}
	v := new(T)
	d, ok := any(v).(wire.Decodable)
	if !ok {
		return nil, checkData(out)
	}
	if err := wire.Unmarshal(out.Data, d); err != nil {
		return nil, &SellerDataError{Tool: out.Tool, Source: out.DataPath, Type: fmt.Sprintf("%T", v), Err: err}
	}
	return v, nil
}

// checkData checks a payload no type decodes.
func checkData(out *Reply) error {
	if out.Data == nil {
		return nil
	}
	if err := wire.Valid(out.Data); err != nil {
		return &SellerDataError{Tool: out.Tool, Source: out.DataPath, Err: err}
	}
	return nil
}
