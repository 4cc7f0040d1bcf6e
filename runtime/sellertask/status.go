package sellertask

import (
	"context"
	"errors"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Names of the status tools.
const (
	// ToolTasksGet is the status tool of AdCP 3.0 (schemas
	// core/tasks-get-request.json and core/tasks-get-response.json, no tool
	// in the 3.0 manifest), which buyers built on the JavaScript SDK poll in
	// every version, with {task_id, include_result: true}.
	ToolTasksGet = "tasks/get"
	// ToolGetTaskStatus is the status tool of AdCP 3.1 and later.
	ToolGetTaskStatus = "get_task_status"
	// ToolTasksList lists tasks in AdCP 3.0 (core/tasks-list-*.json).
	ToolTasksList = "tasks/list"
	// ToolListTasks lists tasks in AdCP 3.1 and later.
	ToolListTasks = "list_tasks"
)

// ServeStatusTools registers on srv the status tools the spec version
// has, answered from the manager's store: get_task_status and list_tasks
// where the version's tool table has them, tasks/get always (with the
// 3.0 task schemas where the version has them, else get_task_status's),
// and tasks/list where the version has its schemas. A tool srv already
// serves is left alone. Use the Manager as srv's Options.Tasks.
func (m *Manager) ServeStatusTools(srv *seller.Server) {
	spec := srv.Spec()
	has := func(schema string) string {
		if spec.NewBySchema(schema) != nil {
			return schema
		}
		return ""
	}
	add := func(t seller.RawTool) {
		if !srv.Serves(t.Name) {
			srv.HandleRaw(t)
		}
	}
	getReq, getResp := has("core/tasks-get-request.json"), has("core/tasks-get-response.json")
	if t, ok := spec.Tool(ToolGetTaskStatus); ok {
		add(seller.RawTool{Name: t.Name, Summary: t.Summary, RequestSchema: t.RequestSchema, ResponseSchema: t.ResponseSchema,
			Handler: m.statusHandler(srv, false)})
		if getReq == "" {
			getReq, getResp = t.RequestSchema, t.ResponseSchema
		}
	}
	add(seller.RawTool{Name: ToolTasksGet, Summary: "Get the status of an async task, and its result once it is done.",
		RequestSchema: getReq, ResponseSchema: getResp, Handler: m.statusHandler(srv, true)})
	if t, ok := spec.Tool(ToolListTasks); ok {
		add(seller.RawTool{Name: t.Name, Summary: t.Summary, RequestSchema: t.RequestSchema, ResponseSchema: t.ResponseSchema,
			Handler: m.listHandler()})
	}
	if req := has("core/tasks-list-request.json"); req != "" {
		add(seller.RawTool{Name: ToolTasksList, Summary: "List the caller's async tasks.",
			RequestSchema: req, ResponseSchema: has("core/tasks-list-response.json"), Handler: m.listHandler()})
	}
}

// statusHandler answers tasks/get and get_task_status. The result is
// included when the task is done and the buyer asked for it (the default
// of tasks/get, which JavaScript buyers read; get_task_status defaults to
// leaving it out, as its schema says).
func (m *Manager) statusHandler(srv *seller.Server, resultByDefault bool) seller.Dispatch {
	return func(ctx context.Context, c *seller.Call) *seller.Answer {
		id, _ := c.StringMember("task_id")
		includeResult := resultByDefault
		switch string(c.Member("include_result")) {
		case "true":
			includeResult = true
		case "false":
			includeResult = false
		}
		t, err := m.read(ctx, c.Principal.ID, id)
		if err == nil && !ofAccount(t, wire.Lenient(c.Member("account"))) {
			err = sellerstore.ErrNotFound
		}
		if err != nil {
			if errors.Is(err, sellerstore.ErrNotFound) || errors.Is(err, sellerstore.ErrInvalid) {
				return seller.ErrorAnswer(srv.TaskNotFound(id))
			}
			return m.storeFailed(c, err)
		}
		body, err := m.statusBody(t, includeResult)
		if err != nil {
			return m.storeFailed(c, err)
		}
		return &seller.Answer{Status: task.Completed, Body: body}
	}
}

// statusBody is a task as the status tools report it (tasks-get-response,
// get-task-status-response).
func (m *Manager) statusBody(t sellerstore.Task, includeResult bool) ([]byte, error) {
	s, err := m.snapshot(t)
	if err != nil {
		return nil, err
	}
	var e wire.Encoder
	e.ObjectStart()
	m.taskMembers(&e, t, "protocol")
	if a := s.Answer; a != nil {
		if a.Message != "" {
			e.Key("message")
			e.String(a.Message)
		}
		switch {
		case a.Error != nil:
			w, err := a.Error.WireJSON()
			if err != nil {
				return nil, err
			}
			e.Key("error")
			e.Raw(w)
		case t.Status == task.Working && hasMembersBut(a.Body, "context"):
			// The payload as the seller reported it, the original request's
			// context included: it is the task's, not this call's.
			e.Key("progress")
			e.Raw(a.Body)
		case t.Status.Final() && includeResult:
			e.Key("result")
			e.Raw(a.Body)
		}
	}
	e.ObjectEnd()
	// The stored answers are read back from the store: Raw checks them
	// strictly again.
	return e.Bytes(), e.Err()
}

// taskMembers writes the members every task report has. domainKey names
// the protocol member ("protocol" in a status, "domain" in a list).
func (m *Manager) taskMembers(e *wire.Encoder, t sellerstore.Task, domainKey string) {
	str := func(k, v string) {
		e.Key(k)
		e.String(v)
	}
	str("task_id", t.ID)
	str("task_type", t.Tool)
	if tool, ok := m.spec.Tool(t.Tool); ok && tool.Protocol != "" {
		str(domainKey, tool.Protocol)
	}
	str("status", string(t.Status))
	str("created_at", timestamp(t.CreatedAt))
	str("updated_at", timestamp(t.UpdatedAt))
	if t.Status.Final() {
		str("completed_at", timestamp(t.UpdatedAt))
	}
	e.Key("has_webhook")
	e.Bool(len(t.PushConfig) > 0)
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// storeFailed logs err and answers a transient error that says nothing of
// it, paced by the store's backoff (retry_after) when it gives one.
func (m *Manager) storeFailed(c *seller.Call, err error) *seller.Answer {
	m.log.Error("adcp: task store failed", "tool", c.Tool.Name, "err", err.Error())
	e := &adcperr.Error{Code: "SERVICE_UNAVAILABLE", Message: "Service temporarily unavailable"}
	e.Recovery, _ = m.spec.Recovery(e.Code)
	var unavailable *sellerstore.OutageError
	if errors.As(err, &unavailable) {
		e.RetryAfter = max(unavailable.RetryAfter(), time.Second)
	}
	return seller.ErrorAnswer(e)
}

// hasMembersBut reports an object with a member other than skip.
func hasMembersBut(obj []byte, skip string) bool {
	found := false
	wire.Lenient(obj).Members(func(k, _ wire.Lenient) bool {
		if !k.StringIs(skip) {
			found = true
			return false
		}
		return true
	})
	return found
}
