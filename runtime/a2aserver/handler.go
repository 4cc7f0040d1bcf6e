package a2aserver

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Options configure the A2A transport of a seller.
type Options struct {
	// URL is the absolute URL the JSON-RPC endpoint is served at
	// ("https://seller.example/a2a"); the agent card names it.
	URL string
	// Name, Description and Version describe the agent in its card;
	// defaults: "AdCP seller", a sentence, the spec version.
	Name        string
	Description string
	Version     string
	// Provider is the card's provider, if any.
	Provider *a2a.AgentProvider
	// Now is the clock for task timestamps; nil means time.Now.
	Now func() time.Time
	// TaskStates says in which A2A task states answers are sent:
	// TaskStatesProtocol (the default, AdCP's A2A rules),
	// TaskStatesCompleted, or TaskStatesFollowDialect (see TaskStateMode).
	TaskStates TaskStateMode
}

// NewHandler serves srv over A2A JSON-RPC (a2a-go's
// a2asrv.NewJSONRPCHandler): message/send and message/stream call the
// skill named in the message's DataPart {"skill": ..., "input": {...}}
// (the legacy key "parameters" is accepted for input), with the input's
// exact bytes; tasks/get reads the server's TaskManager. The handler
// authenticates first, as the MCP gate does (seller.Server.Admit): a
// protected skill (and every tasks/* method) without credentials, or
// refused credentials, get HTTP 401 with a WWW-Authenticate challenge; with
// the server's SignedRequests, an RFC 9421 signature refused (or missing
// where the skill's policy needs one) gets HTTP 401 with WWW-Authenticate:
// Signature error="<code>". A JSON-RPC batch is judged by its strictest
// call, then refused with HTTP 400 and a correctable INVALID_REQUEST (where
// a2a-go would answer a bare parse error). Mount it at opts.URL's path.
func NewHandler(srv *seller.Server, opts Options) http.Handler {
	return newHandler(&handler{srv: srv, opts: opts, direct: true})
}

// newHandler is NewHandler's, with or without the direct path (h.direct).
func newHandler(h *handler) http.Handler {
	srv := h.srv
	rpc := a2asrv.NewJSONRPCHandler(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := srv.ReadRPCBody(w, r)
		if !ok {
			return
		}
		tool := ""
		if body != nil {
			tool = calledSkill(body)
		}
		adm, fail := srv.Admit(r, body, tool)
		if fail != nil {
			writeAuthFailure(w, fail, body)
			return
		}
		if !srv.CheckRPCBody(w, body) {
			return
		}
		ctx := context.WithValue(r.Context(), requestKey{}, &request{body: body, principal: adm.Principal, signer: adm.Signer, header: r.Header})
		if h.direct && h.serveDirect(w, ctx, body) {
			return
		}
		rpc.ServeHTTP(w, r.WithContext(ctx))
	})
}

// request is what the gate keeps of an HTTP request for the handler.
type request struct {
	body      []byte
	principal seller.Principal
	signer    *signing.VerifiedSigner
	header    http.Header
}

type requestKey struct{}

// calledSkill names what a JSON-RPC request needs credentials for: the
// skill a message calls (public skills need none). Anything else (the task
// methods, a message naming no skill, a method A2A does not have, a body
// that is not JSON) gets protectedRequest, which no tool is called, so only
// an authenticated buyer gets past the gate: an MCP probe posted to the A2A
// endpoint without credentials is refused with 401, not answered.
func calledSkill(body []byte) string {
	v, err := wire.ParseLenient(body)
	if err != nil || !v.IsObject() {
		return protectedRequest
	}
	method, _ := v.Get("method").AsString()
	switch method {
	case "message/send", "message/stream":
		if d, ok := findDataPart(v.Get("params").Get("message")); ok {
			if name, _ := d.Get("skill").AsString(); name != "" {
				return name
			}
		}
	case "tools/call":
		if name, ok := v.Get("params").Get("name").AsString(); ok && name != "" {
			return name
		}
	}
	return protectedRequest
}

// protectedRequest stands for a request that calls no public tool.
const protectedRequest = "(a protected request)"

// findDataPart returns the data of the first DataPart of message whose data
// names a skill.
func findDataPart(message wire.Lenient) (wire.Lenient, bool) {
	var found wire.Lenient
	message.Get("parts").Elems(func(p wire.Lenient) bool {
		d := p.Get("data")
		if (p.Get("kind").StringIs("data") || !p.Get("kind").Present()) && d.IsObject() && d.Get("skill").IsString() {
			found = d
			return false
		}
		return true
	})
	return found, found != nil
}

// writeAuthFailure answers a refused request (seller.AuthFailure.Write)
// to the request's id.
func writeAuthFailure(w http.ResponseWriter, fail *seller.AuthFailure, body []byte) {
	var id json.RawMessage
	if v, err := wire.ParseLenient(body); err == nil {
		id = v.Get("id").Raw()
	}
	fail.Write(w, id)
}

// handler is the a2asrv.RequestHandler of a seller.
type handler struct {
	srv  *seller.Server
	opts Options
	// direct answers message/send itself (serveDirect); served counts the
	// calls it answered (tests read it).
	direct bool
	served atomic.Int64
}

var _ a2asrv.RequestHandler = (*handler)(nil)

func (h *handler) now() time.Time {
	if h.opts.Now != nil {
		return h.opts.Now()
	}
	return time.Now()
}

func requestFrom(ctx context.Context) *request {
	r, _ := ctx.Value(requestKey{}).(*request)
	if r == nil {
		r = &request{}
	}
	return r
}

// OnSendMessage calls the message's skill with its input's raw bytes.
func (h *handler) OnSendMessage(ctx context.Context, params *a2a.MessageSendParams) (a2a.SendMessageResult, error) {
	return h.send(ctx, params), nil
}

// OnSendMessageStream answers like OnSendMessage, as one event.
func (h *handler) OnSendMessageStream(ctx context.Context, params *a2a.MessageSendParams) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(h.send(ctx, params), nil) }
}

func (h *handler) send(ctx context.Context, params *a2a.MessageSendParams) *a2a.Task {
	a, contextID, legacy := h.answer(ctx, params)
	return TaskOf(a, contextID, h.now(), h.opts.TaskStates.allCompleted(legacy))
}

// answer serves the call a message makes: the seller's answer, the
// conversation it belongs to, and whether the message used the legacy
// dialect.
func (h *handler) answer(ctx context.Context, params *a2a.MessageSendParams) (a *seller.Answer, contextID string, legacy bool) {
	req := requestFrom(ctx)
	if params != nil && params.Message != nil {
		contextID = params.Message.ContextID
	}
	if contextID == "" {
		contextID = a2a.NewContextID()
	}
	c := &seller.Call{Principal: req.principal, Signer: req.signer, Transport: seller.TransportA2A, ContextID: contextID, Header: req.header}
	skill, input, legacy, err := skillInput(req.body)
	c.Arguments = input // a refusal echoes its context too, as over MCP
	if err != nil {
		return h.srv.Refuse(c, err), contextID, legacy
	}
	return h.srv.Serve(ctx, skill, c), contextID, legacy
}

// skillInput reads the skill and the raw input of a message/send body;
// legacy reports input sent under the legacy key "parameters". Input the
// strict reader refuses comes back with the error, for the refusal to echo
// its context from.
func skillInput(body []byte) (skill string, input json.RawMessage, legacy bool, err error) {
	v, err := wire.ParseLenient(body)
	if err != nil {
		return "", nil, false, err
	}
	data, ok := findDataPart(v.Get("params").Get("message"))
	if !ok {
		return "", nil, false, errors.New("the message has no DataPart naming a skill")
	}
	// The dialect is known before the data is checked, so a refusal comes
	// in the task state its buyer reads.
	in := data.Get("input")
	if !in.Present() {
		in = data.Get("parameters")
		legacy = in.Present()
	}
	if err := wire.Valid(data); err != nil {
		return "", in.Raw(), legacy, err
	}
	skill, _ = data.Get("skill").AsString()
	if !in.Present() {
		return skill, json.RawMessage("{}"), false, nil
	}
	return skill, in.Raw(), legacy, nil
}

// OnGetTask answers tasks/get from the server's TaskManager: a task of
// another principal is not found, like a missing one.
func (h *handler) OnGetTask(ctx context.Context, query *a2a.TaskQueryParams) (*a2a.Task, error) {
	if query == nil {
		return nil, a2a.ErrInvalidParams
	}
	req := requestFrom(ctx)
	t, err := h.srv.Tasks().Get(ctx, req.principal.ID, string(query.ID))
	if err != nil {
		if errors.Is(err, seller.ErrTaskNotFound) {
			return nil, a2a.ErrTaskNotFound
		}
		h.srv.Logger().Error("adcp: a2a tasks/get", "err", err.Error())
		return nil, a2a.ErrInternalError
	}
	return TaskOf(h.srv.TaskAnswer(t), "", t.UpdatedAt, h.opts.TaskStates.allCompleted(false)), nil
}

func (h *handler) OnCancelTask(context.Context, *a2a.TaskIDParams) (*a2a.Task, error) {
	return nil, a2a.ErrTaskNotCancelable
}

func (h *handler) OnResubscribeToTask(context.Context, *a2a.TaskIDParams) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, a2a.ErrUnsupportedOperation) }
}

func (h *handler) OnGetTaskPushConfig(context.Context, *a2a.GetTaskPushConfigParams) (*a2a.TaskPushConfig, error) {
	return nil, a2a.ErrPushNotificationNotSupported
}

func (h *handler) OnListTaskPushConfig(context.Context, *a2a.ListTaskPushConfigParams) ([]*a2a.TaskPushConfig, error) {
	return nil, a2a.ErrPushNotificationNotSupported
}

func (h *handler) OnSetTaskPushConfig(context.Context, *a2a.TaskPushConfig) (*a2a.TaskPushConfig, error) {
	return nil, a2a.ErrPushNotificationNotSupported
}

func (h *handler) OnDeleteTaskPushConfig(context.Context, *a2a.DeleteTaskPushConfigParams) error {
	return a2a.ErrPushNotificationNotSupported
}

func (h *handler) OnGetExtendedAgentCard(context.Context) (*a2a.AgentCard, error) {
	return nil, a2a.ErrAuthenticatedExtendedCardNotConfigured
}

// states maps AdCP task statuses to A2A task states.
var states = map[task.Status]a2a.TaskState{
	task.Submitted: a2a.TaskStateSubmitted, task.Working: a2a.TaskStateWorking,
	task.InputRequired: a2a.TaskStateInputRequired, task.AuthRequired: a2a.TaskStateAuthRequired,
	task.Completed: a2a.TaskStateCompleted, task.Failed: a2a.TaskStateFailed,
	task.Canceled: a2a.TaskStateCanceled, task.Rejected: a2a.TaskStateRejected,
	task.Unknown: a2a.TaskStateUnknown,
}

// TaskOf is the A2A task of an answer, as AdCP's A2A extraction reads it.
// A response: the artifact "result" holds the response object as its
// first part (a DataPart: the answer's body, which the seller completed
// with the protocol envelope's members, as over MCP) and the message as a
// TextPart, with the AdCP task id at the artifact's metadata
// "adcp_task_id"; an interim answer also puts the payload in
// status.message. An error: a failed task whose artifact "error-result"
// holds a TextPart and the DataPart {"adcp_error": ..., "context": ...}.
// With allCompleted (see TaskStateMode) every answer is a completed task
// with that artifact, interim and error answers included, and no
// status.message. The task's id is the AdCP task id when there is one.
func TaskOf(a *seller.Answer, contextID string, at time.Time, allCompleted bool) *a2a.Task {
	return taskOf(a, contextID, at, allCompleted, a.Error == nil && ownStatus(a), members)
}

// taskOf is TaskOf, told whether the answer has a status of its own
// (ownStatus), with data making each DataPart's data of the JSON object it
// holds.
func taskOf(a *seller.Answer, contextID string, at time.Time, allCompleted, own bool, data func(obj []byte) map[string]any) *a2a.Task {
	id := a2a.TaskID(a.TaskID)
	if id == "" {
		id = a2a.NewTaskID()
	}
	// Whole seconds: a timestamp's text is then always as long, so two
	// answers that say the same (a not-found for an id that exists
	// elsewhere and for one that never did) are the same size on the wire,
	// as AdCP's uniform-response rule asks (a2a-go writes RFC 3339 with
	// the fraction's trailing zeros cut).
	at = at.UTC().Truncate(time.Second)
	t := &a2a.Task{ID: id, ContextID: contextID, Status: a2a.TaskStatus{State: states[a.Status], Timestamp: &at}}
	if t.Status.State == "" {
		t.Status.State = a2a.TaskStateUnknown
	}
	if allCompleted {
		t.Status.State = a2a.TaskStateCompleted
	}
	if a.Error != nil {
		if !allCompleted {
			t.Status.State = a2a.TaskStateFailed
		}
		obj, err := seller.ErrorObject(a)
		if err != nil { // unreachable: Serve checked the error
			obj = []byte(`{"adcp_error":{"code":"SERVICE_UNAVAILABLE","message":"Service temporarily unavailable","recovery":"transient"}}`)
		}
		t.Artifacts = []*a2a.Artifact{{ID: "error-result", Metadata: taskMeta(a), Parts: a2a.ContentParts{
			a2a.TextPart{Text: seller.TerseText(a.Error)},
			a2a.DataPart{Data: data(obj), Metadata: map[string]any{"mimeType": seller.ErrorMIMEType}},
		}}}
		return t
	}
	body := data(a.Body)
	parts := a2a.ContentParts{a2a.DataPart{Data: body}}
	if a.Message != "" {
		parts = append(parts, a2a.TextPart{Text: a.Message})
	}
	if own {
		// The payload's status is its own (AdCP 3.0's media buy status)
		// and reads as a task status other than the task's: the text
		// leads, so a client that takes the first DataPart's status for
		// the task's (the JavaScript SDK 6.11 does) finds none there and
		// keeps the task state, and still reads the payload from the
		// DataPart.
		text := a.Message
		if text == "" {
			text = "Task " + string(a.Status) + "."
		}
		parts = a2a.ContentParts{a2a.TextPart{Text: text}, a2a.DataPart{Data: body}}
	}
	t.Artifacts = []*a2a.Artifact{{ID: "result", Metadata: taskMeta(a), Parts: parts}}
	if a.Status.Interim() && !allCompleted {
		t.Status.Message = &a2a.Message{ID: a2a.NewMessageID(), Role: a2a.MessageRoleAgent, TaskID: id, ContextID: contextID, Parts: parts}
	}
	return t
}

// ownStatus reports a response whose payload has a status member of its
// own that names a task status other than the answer's (a media buy
// "canceled" in a completed update_media_buy answer).
func ownStatus(a *seller.Answer) bool { return ownStatusIs(a, wire.Lenient(a.Body).Get("status")) }

// ownStatusIs is ownStatus given the body's status member.
func ownStatusIs(a *seller.Answer, status wire.Lenient) bool {
	st, ok := status.AsString()
	if !ok || task.Status(st) == a.Status {
		return false
	}
	_, isTaskStatus := states[task.Status(st)]
	return isTaskStatus
}

func taskMeta(a *seller.Answer) map[string]any {
	if a.TaskID == "" {
		return nil
	}
	return map[string]any{"adcp_task_id": a.TaskID}
}

// members splits a JSON object into its members, each value kept as its
// raw JSON (a2a-go holds a DataPart's data as a map).
func members(obj []byte) map[string]any {
	out := map[string]any{}
	wire.Lenient(obj).Members(func(k, v wire.Lenient) bool {
		name, _ := k.AsString()
		out[name] = json.RawMessage(v)
		return true
	})
	return out
}
