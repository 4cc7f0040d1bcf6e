package seller

import (
	"context"

	"github.com/adcpgen/adcpgen/runtime/registry"
)

// RawTool is a tool served without generated types: the status tools
// (tasks/get, get_task_status, list_tasks) and anything else a framework
// layer adds. Its handler works on the Call and answers an Answer; the
// server still reads the request strictly, validates it against
// RequestSchema, echoes the context and, when it validates responses,
// checks a final Body against ResponseSchema.
type RawTool struct {
	// Name is the tool's name on the wire ("tasks/get").
	Name    string
	Summary string
	// RequestSchema and ResponseSchema are tree paths
	// ("core/tasks-get-request.json"); "" skips that validation.
	RequestSchema  string
	ResponseSchema string
	// Public lets the tool be called without credentials.
	Public bool
	// OwnsSchemaIssues hands a request that fails RequestSchema to Handler
	// anyway, with the issues in Call.SchemaIssues, instead of answering
	// INVALID_REQUEST: for tools whose protocol answers invalid input in
	// its own response shape (comply_test_controller's INVALID_PARAMS and
	// UNKNOWN_SCENARIO). The schema is still published and applied.
	OwnsSchemaIssues bool
	// Handler answers a call.
	Handler Dispatch
}

// HandleRaw serves t. A tool the spec's tool table lists keeps the
// table's protocol, mutating and idempotency_requirement (so middleware
// such as the idempotency layer treats it as the spec says). It panics
// when a tool of that name is registered already (see Handle).
func (s *Server) HandleRaw(t RawTool) {
	if t.Name == "" || t.Handler == nil {
		panic("seller: HandleRaw needs a name and a handler")
	}
	if t.Public {
		s.mu.Lock()
		s.public[t.Name] = true
		s.mu.Unlock()
	}
	tool := registry.Tool{Name: t.Name, Summary: t.Summary, RequestSchema: t.RequestSchema, ResponseSchema: t.ResponseSchema}
	if st, ok := s.spec.Tool(t.Name); ok {
		tool.Protocol, tool.Mutating, tool.IdempotencyRequired = st.Protocol, st.Mutating, st.IdempotencyRequired
	}
	s.register(&entry{
		tool:       tool,
		raw:        true,
		ownsIssues: t.OwnsSchemaIssues,
		rawHandler: t.Handler,
		run: func(ctx context.Context, c *Call) *Answer {
			return s.rawAnswer(c, t.Handler(ctx, c))
		},
	})
}

// rawAnswer completes a raw handler's answer to c and, for a final body,
// checks it against the tool's response schema.
func (s *Server) rawAnswer(c *Call, a *Answer) *Answer {
	if a == nil || a.Error != nil || a.Status.Interim() || c.Tool.ResponseSchema == "" {
		return a
	}
	out := s.finish(c, a)
	if out.Error != nil {
		return out
	}
	if err := s.checkResponse(c.Tool, out.Status, out.Body); err != nil {
		s.log.ErrorContext(c.logContext(), "adcp: response not sent", "tool", c.Tool.Name, "err", err.Error())
		return ErrorAnswer(s.internalError())
	}
	return out
}
