package buyer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Status detection: what a seller's answer says about the task, read from
// the exact bytes. Extraction follows AdCP's algorithms (runtime/extract);
// on top of it:
//   - MCP: the payload's status (absent, or a status of the payload's own
//     where the tool's schema declares one, as the Spec's envelope tables
//     say: completed), task_id, context_id and message;
//   - A2A: the task state (A2A 1.0 TASK_STATE_* names included), except
//     that a completed task whose payload says submitted, working or
//     input-required is that interim status (the AdCP task goes on after
//     the A2A task ended); task_id from the payload or the artifacts'
//     metadata.adcp_task_id; contextId from the task; a Message answer
//     (no task) is a completed reply carrying its last DataPart.

// payloadKeys are the protocol members of an AdCP payload.
var payloadKeys = []string{"status", "task_id", "context_id", "message"}

// detect reads a tool call's answer.
func (c *Client) detect(tool string, ex *Exchange) (*Reply, error) {
	out := &Reply{Tool: tool, Exchange: ex}
	var err error
	switch ex.Protocol {
	case MCP:
		err = c.detectMCP(out)
	case A2A:
		err = c.detectA2A(out)
	default:
		err = fmt.Errorf("buyer: %s: exchange protocol %q is neither %q nor %q", tool, ex.Protocol, MCP, A2A)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (c *Client) detectMCP(out *Reply) error {
	r := c.x.MCP(out.Exchange.Envelope)
	if err := c.failure(out.Tool, out.Exchange, r); err != nil {
		return err
	}
	out.Data, out.DataPath = r.Data, r.DataPath
	var f [4]wire.Lenient
	wire.Lenient(r.Data).Fields(payloadKeys, f[:])
	out.Status = task.Completed
	if s, ok := f[0].AsString(); ok {
		out.Status = c.payloadStatus(out.Tool, s)
	}
	out.TaskID, _ = f[1].AsString()
	out.ContextID, _ = f[2].AsString()
	out.Message, _ = f[3].AsString()
	return nil
}

func (c *Client) detectA2A(out *Reply) error {
	env := out.Exchange.Envelope
	// Everything of an A2A answer is read from the seller's bytes (context
	// id, metadata, every part), so all of it is checked strictly.
	if err := wire.Valid(env); err != nil {
		return &SellerDataError{Tool: out.Tool, Source: "envelope", Err: err}
	}
	r := c.x.A2A(env)
	t := readA2ATask(r.Task)
	state := r.State
	if state == "" && r.Error == nil && r.Problem == nil && t.isMessage() {
		// A Message answer: a synchronous reply with no task.
		state = string(task.Completed)
		data, path := t.lastDataPart()
		r.Data, r.DataPath = data.Raw(), path
	}
	if r.Error != nil || r.Problem != nil || state == "" {
		// An AdCP error, an extraction problem, a JSON-RPC error, or no
		// task state at all.
		if err := c.failure(out.Tool, out.Exchange, r); err != nil {
			return err
		}
	}
	status := a2aStatus(state)
	if !status.Known() || status == task.Unknown {
		return &TaskError{Tool: out.Tool, TaskID: t.adcpTaskID(), Status: status, Message: t.statusText(),
			Err: fmt.Errorf("A2A task state %q is not one this client can act on", untrusted.SanitizeTruncate(state, 64))}
	}
	if r.Data == nil && !status.Interim() {
		cause := ErrNoResult
		if status == task.Failed || status == task.Rejected {
			cause = extract.ErrUnstructuredFailure
		}
		return &TaskError{Tool: out.Tool, TaskID: t.adcpTaskID(), Status: status, Message: t.statusText(), Err: cause}
	}
	out.Data, out.DataPath = r.Data, r.DataPath
	var f [4]wire.Lenient
	wire.Lenient(r.Data).Fields(payloadKeys, f[:])
	out.Status = status
	if s, ok := f[0].AsString(); ok && out.Status == task.Completed {
		if ps := c.payloadStatus(out.Tool, s); ps.Interim() {
			out.Status = ps
		}
	}
	out.TaskID, _ = f[1].AsString()
	if out.TaskID == "" {
		out.TaskID = t.adcpTaskID()
	}
	out.ContextID = t.contextIDString()
	if out.ContextID == "" {
		out.ContextID, _ = f[2].AsString()
	}
	out.Message, _ = f[3].AsString()
	if out.Message == "" {
		out.Message = t.statusText()
	}
	out.remoteTaskID = t.taskIDString()
	return nil
}

// payloadStatus reads a payload's status member: the task's status where
// the tool's schemas make it the envelope's (registry.Tool.StatusIsTask),
// else completed, as is a value that is no task status: a status of the
// payload's own (3.0's create_media_buy status, the media buy's, whose
// "completed" and "rejected" are no task's), for the payload's decoder.
func (c *Client) payloadStatus(tool, s string) task.Status {
	st := task.Status(s)
	if !st.Known() {
		return task.Completed
	}
	if t, ok := c.spec.Tool(tool); ok && !t.StatusIsTask(s) {
		return task.Completed
	}
	return st
}

// a2aStatus maps a normalised A2A task state to an AdCP status.
func a2aStatus(state string) task.Status {
	switch state {
	case "cancelled":
		return task.Canceled
	case "":
		return task.Unknown
	}
	return task.Status(state)
}

// failure is the error of an extraction that yielded no data: the AdCP
// error (after checking its bytes strictly), the extraction problem, or a
// failure without a structured error, described from the envelope.
func (c *Client) failure(tool string, ex *Exchange, r *extract.Result) error {
	if r.Error != nil {
		if err := wire.Valid(r.Error.Raw); err != nil {
			return &SellerDataError{Tool: tool, Source: r.Error.Path, Err: err}
		}
		if r.Error.Code == "VERSION_UNSUPPORTED" {
			return c.versionError(tool, r.Error)
		}
		return r.Error
	}
	err := r.Failure()
	if err == nil {
		return nil
	}
	// The call's retry loop names the tool (see attempts).
	if r.Problem != nil {
		return err
	}
	if d := describeFailure(ex); d != "" {
		return fmt.Errorf("%s: %w", d, err)
	}
	return err
}

// describeFailure names a failure without a structured AdCP error: the
// JSON-RPC error's code and message, or an MCP error result's text.
func describeFailure(ex *Exchange) string {
	env, err := wire.ParseLenient(ex.Envelope)
	if err != nil {
		return ""
	}
	if e := env.Get("error"); e.IsObject() {
		code, _ := e.Get("code").Number()
		msg, _ := e.Get("message").AsString()
		return "JSON-RPC error " + strconv.FormatFloat(code, 'f', -1, 64) + " " + strconv.Quote(untrusted.SanitizeTruncate(msg, 256))
	}
	res := env.Get("result")
	if res.Get("isError").Truthy() {
		text, _ := res.Get("content").Index(0).Get("text").AsString()
		return "tool error " + strconv.Quote(untrusted.SanitizeTruncate(text, 256))
	}
	return ""
}

// a2aTask is the task (or message) an A2A answer holds (extract's
// Result.Task), its members read in one pass: each lookup in the task
// itself would be a pass over its artifacts, which hold the payload.
type a2aTask struct {
	parts, status, kind, role, contextID, taskID, id, artifacts wire.Lenient
}

var a2aTaskKeys = []string{"parts", "status", "kind", "role", "contextId", "taskId", "id", "artifacts"}

func readA2ATask(v wire.Lenient) a2aTask {
	var f [8]wire.Lenient
	v.Fields(a2aTaskKeys, f[:])
	return a2aTask{parts: f[0], status: f[1], kind: f[2], role: f[3], contextID: f[4], taskID: f[5], id: f[6], artifacts: f[7]}
}

// isMessage reports an A2A Message: parts and a role, no task status.
func (t a2aTask) isMessage() bool {
	return t.parts.IsArray() && !t.status.Present() && (t.kind.StringIs("message") || t.role.Present())
}

// lastDataPart is a Message's last DataPart, as a final task's artifact
// is read.
func (t a2aTask) lastDataPart() (wire.Lenient, string) {
	var data wire.Lenient
	path := ""
	i := -1
	t.parts.Elems(func(p wire.Lenient) bool {
		i++
		if d := p.Get("data"); d.IsObject() {
			data, path = d, "result.parts["+strconv.Itoa(i)+"].data"
		}
		return true
	})
	return data, path
}

func (t a2aTask) contextIDString() string {
	s, _ := t.contextID.AsString()
	return s
}

// taskIDString is the A2A task's own id ("" for a message or status event
// without one; a status event names its task taskId).
func (t a2aTask) taskIDString() string {
	if t.isMessage() {
		s, _ := t.taskID.AsString()
		return s
	}
	if s, ok := t.id.AsString(); ok {
		return s
	}
	s, _ := t.taskID.AsString()
	return s
}

// adcpTaskID is the first artifact metadata adcp_task_id.
func (t a2aTask) adcpTaskID() string {
	id := ""
	t.artifacts.Elems(func(a wire.Lenient) bool {
		id, _ = a.Get("metadata").Get("adcp_task_id").AsString()
		return id == ""
	})
	return id
}

// statusText joins the text parts of the task's status message.
func (t a2aTask) statusText() string {
	var b strings.Builder
	t.status.Get("message").Get("parts").Elems(func(p wire.Lenient) bool {
		if s, ok := p.Get("text").AsString(); ok {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s)
		}
		return b.Len() < 4096
	})
	return b.String()
}
