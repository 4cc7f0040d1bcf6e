package buyer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// TaskRef names the task a TaskPoller reads.
type TaskRef struct {
	// Tool is the tool whose task it is ("create_media_buy").
	Tool string
	// TaskID is the seller's AdCP task id.
	TaskID string
	// ContextID is the conversation's context id, "" when unknown.
	ContextID string
	// TransportTaskID is the transport's own id of the task that answered
	// (the A2A task's id), "" when unknown: what a poller using the
	// transport's task methods (A2A tasks/get) asks for.
	TransportTaskID string
}

// TaskPoller reads the current state of a task for Wait: a Reply of
// ref.Tool whose Data, once the task completed, is the tool's response.
//
// The default polls a status tool through the Transport: the one the
// seller lists (tools/list, the agent card's skills) of get_task_status
// (from 3.1) and the tasks/get tool (before, whose schemas are
// core/tasks-get-request.json and core/tasks-get-response.json), the
// version's own when it lists both or the list cannot be read. A
// Transport that implements TaskPoller itself is used instead; this is
// where MCP Tasks (the tasks/get and tasks/result protocol methods) will
// plug in once the Go SDK supports them (v1.8 does not).
type TaskPoller interface {
	PollTask(ctx context.Context, c *Client, ref TaskRef) (*Reply, error)
}

// WaitTask polls tool's task taskID until it completes, fails, is
// canceled or rejected, or asks for input (input-required,
// auth-required), and returns that state: see Wait. Its Data is checked as
// Invoke checks it.
func (c *Client) WaitTask(ctx context.Context, tool, taskID string, opts ...CallOption) (*Reply, error) {
	out, err := c.await(ctx, &Reply{Tool: tool, TaskID: taskID, Status: task.Submitted}, c.settings(opts))
	if err != nil {
		return nil, err
	}
	if err := c.checkPayload(out); err != nil {
		return nil, err
	}
	return out, nil
}

// await polls until the task leaves submitted and working. The first wait
// is the polling interval (or the seller's hint); each later one doubles,
// within the client's bounds; ctx bounds it all.
func (c *Client) await(ctx context.Context, first *Reply, s callSettings) (*Reply, error) {
	if first.TaskID == "" {
		return nil, &TaskError{Tool: first.Tool, Status: first.Status, Message: first.Message,
			Err: errors.New("the seller gave no task_id to poll")}
	}
	if s.progress != nil && first.Exchange != nil {
		s.progress(first) // the call's own answer (Wait and WaitTask start from none)
	}
	ref := TaskRef{Tool: first.Tool, TaskID: first.TaskID, ContextID: first.ContextID, TransportTaskID: first.remoteTaskID}
	interval, hint := c.poll.Interval, first.PollAfter
	status := first.Status
	for polls := 0; ; polls++ {
		wait := interval
		if hint > 0 {
			wait = min(max(hint, c.poll.Interval), c.poll.MaxInterval)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("buyer: %s: waiting for task %s (%s after %d polls): %w", first.Tool, first.TaskID, status, polls, ctx.Err())
		case <-t.C:
		}
		out, err := c.pollOnce(ctx, ref)
		if err != nil {
			return nil, err
		}
		if out.Release == "" {
			out.Release = echoOf(out.Data)
		}
		if out.failure != nil {
			return nil, out.failure
		}
		s.conv.observe(out)
		if out.Status == task.Submitted || out.Status == task.Working {
			if s.progress != nil {
				s.progress(out)
			}
			status, hint = out.Status, out.PollAfter
			interval = min(interval*2, c.poll.MaxInterval)
			continue
		}
		if out.IdempotencyKey == "" {
			out.IdempotencyKey = first.IdempotencyKey
		}
		return out, nil
	}
}

// statusToolPoller polls the spec's status tool.
type statusToolPoller struct{}

func (statusToolPoller) PollTask(ctx context.Context, c *Client, ref TaskRef) (*Reply, error) {
	name, args := c.statusCall(ctx, ref.TaskID)
	tc := ToolCall{Tool: name, Args: args}
	if c.transport.Protocol() == A2A {
		tc.ContextID = ref.ContextID
	}
	return c.attempts(ctx, name, tc, c.settings(nil), true, func(ex *Exchange) (*Reply, error) {
		return c.readStatus(ref, name, ex)
	})
}

// statusCall is the status tool's name and the request asking for ref's
// task: with its result where the version can say include_result
// (get_task_status), else with its history, whose last response is the
// result (tasks/get).
func (c *Client) statusCall(ctx context.Context, taskID string) (string, []byte) {
	name := c.statusToolName(ctx)
	args := append([]byte(`{"task_id":`), wire.AppendQuoted(nil, taskID)...)
	if name == toolGetTaskStatus {
		args = append(args, `,"include_result":true}`...)
	} else {
		args = append(args, `,"include_history":true}`...)
	}
	// The pin, as on every call: a seller of several releases answers the
	// status tool of the release the task was started in.
	info, _ := c.spec.Tool(name)
	if info.Name == "" && name == toolTasksGet {
		info = registry.Tool{Name: name, NewRequest: func() wire.Value { return c.spec.NewBySchema("core/tasks-get-request.json") }}
		if c.spec.NewBySchema("core/tasks-get-request.json") == nil {
			info.NewRequest = nil
		}
	}
	return name, c.withPin(info, wire.Lenient(args))
}

// Status tool names.
const (
	toolGetTaskStatus = "get_task_status"
	toolTasksGet      = "tasks/get"
)

// statusToolName is the status tool to poll: WithStatusTool's, else the
// one the seller lists of the version's own (get_task_status where the
// spec has it, else tasks/get) and the other, the version's own when the
// seller lists both or neither. The list is read once, on the first poll;
// a list that cannot be read is asked again at the next one.
func (c *Client) statusToolName(ctx context.Context) string {
	if c.statusTool != "" {
		return c.statusTool
	}
	own, other := toolTasksGet, toolGetTaskStatus
	if _, ok := c.spec.Tool(toolGetTaskStatus); ok {
		own, other = other, own
	}
	c.statusMu.Lock()
	defer c.statusMu.Unlock()
	if c.polled != "" {
		return c.polled
	}
	l, ok := c.transport.(ToolLister)
	if !ok {
		c.polled = own
		return own
	}
	names, err := l.ToolNames(ctx)
	if err != nil {
		return own
	}
	c.polled = own
	if !slices.Contains(names, own) && slices.Contains(names, other) {
		c.polled = other
	}
	return c.polled
}

// statusResponse is an empty value of the status tool's response type,
// nil when the spec has none.
func (c *Client) statusResponse(name string) wire.Value {
	if info, ok := c.spec.Tool(name); ok && info.NewResponse != nil {
		return info.NewResponse()
	}
	if name == toolTasksGet {
		return c.spec.NewBySchema("core/tasks-get-response.json")
	}
	return nil
}

// statusKeys are the members of a status tool's response that say what
// became of the task.
var statusKeys = []string{"status", "task_id", "context_id", "message", "result", "error", "history"}

// readStatus reads a status tool's answer about ref's task.
func (c *Client) readStatus(ref TaskRef, statusTool string, ex *Exchange) (*Reply, error) {
	var r *extract.Result
	switch ex.Protocol {
	case A2A:
		if err := wire.Valid(ex.Envelope); err != nil {
			return nil, &SellerDataError{Tool: statusTool, Source: "envelope", Err: err}
		}
		r = c.x.A2A(ex.Envelope)
	default:
		r = c.x.MCP(ex.Envelope)
	}
	if err := c.failure(statusTool, ex, r); err != nil {
		return nil, err
	}
	if v := c.statusResponse(statusTool); v != nil {
		if err := wire.Unmarshal(r.Data, v); err != nil {
			return nil, &SellerDataError{Tool: statusTool, Source: r.DataPath, Type: fmt.Sprintf("%T", v), Err: err}
		}
	} else if err := wire.Valid(r.Data); err != nil {
		return nil, &SellerDataError{Tool: statusTool, Source: r.DataPath, Err: err}
	}
	var f [7]wire.Lenient
	wire.Lenient(r.Data).Fields(statusKeys, f[:])
	out := &Reply{Tool: ref.Tool, TaskID: ref.TaskID, ContextID: ref.ContextID, Exchange: ex}
	s, _ := f[0].AsString()
	out.Status = task.Status(s)
	if id, ok := f[1].AsString(); ok && id != "" {
		out.TaskID = id
	}
	if id, ok := f[2].AsString(); ok && id != "" {
		out.ContextID = id
	}
	out.Message, _ = f[3].AsString()
	result, resultPath := f[4], statusTool+" "+r.DataPath+".result"
	if !result.IsObject() {
		result, resultPath = lastHistoryResponse(f[6], statusTool+" "+r.DataPath)
	}
	switch {
	case out.Status == task.Submitted || out.Status == task.Working ||
		out.Status == task.InputRequired || out.Status == task.AuthRequired:
	case out.Status == task.Failed && f[5].IsObject() && !result.IsObject():
		out.failure = c.taskFailure(ref, statusTool, f[5])
	case out.Status.Final() && result.IsObject():
		out.Data, out.DataPath = result.Raw(), resultPath
	case out.Status.Final():
		cause := ErrNoResult
		if out.Status == task.Failed || out.Status == task.Rejected {
			cause = extract.ErrUnstructuredFailure
		}
		out.failure = &TaskError{Tool: ref.Tool, TaskID: out.TaskID, Status: out.Status, Message: out.Message, Err: cause}
	default:
		out.failure = &TaskError{Tool: ref.Tool, TaskID: out.TaskID, Status: out.Status, Message: out.Message,
			Err: fmt.Errorf("%s reports a status this client cannot act on", statusTool)}
	}
	return out, nil
}

// lastHistoryResponse is the data of the last "response" entry of a
// tasks/get history: the task's result where the version's status tool
// has no result member.
func lastHistoryResponse(history wire.Lenient, path string) (wire.Lenient, string) {
	var data wire.Lenient
	at := -1
	i := -1
	history.Elems(func(h wire.Lenient) bool {
		i++
		if h.Get("type").StringIs("response") {
			if d := h.Get("data"); d.IsObject() {
				data, at = d, i
			}
		}
		return true
	})
	if data == nil {
		return nil, ""
	}
	return data, fmt.Sprintf("%s.history[%d].data", path, at)
}

// taskFailure turns a status tool's error object ({code, message,
// details}, the adcp_error shape) into the AdCP error, classified as the
// spec says; an object that is no usable AdCP error is a TaskError.
func (c *Client) taskFailure(ref TaskRef, statusTool string, e wire.Lenient) error {
	env := append([]byte(`{"isError":true,"structuredContent":{"adcp_error":`), e...)
	env = append(env, `}}`...)
	r := c.x.MCP(env)
	if r.Error != nil {
		r.Error.Path = statusTool + " error"
		return r.Error
	}
	msg, _ := e.Get("message").AsString()
	return &TaskError{Tool: ref.Tool, TaskID: ref.TaskID, Status: task.Failed, Message: msg, Err: extract.ErrUnstructuredFailure}
}
