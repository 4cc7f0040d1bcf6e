package seller

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Transport names, for Call.Transport.
const (
	TransportMCP = "mcp"
	TransportA2A = "a2a"
)

// Call is one call of a tool, as the transport received it. Middleware and
// raw handlers read it; typed handlers get the decoded request instead.
type Call struct {
	// Tool is the called tool's entry in the spec (Mutating,
	// IdempotencyRequired, schemas). For a tool registered with HandleRaw
	// only Name, Summary and the schemas are set.
	Tool registry.Tool
	// Arguments are the buyer's arguments exactly as received: the MCP
	// tools/call arguments, the A2A DataPart's input. By the time
	// middleware sees them they are one strict JSON object, valid against
	// the request schema (except for a tool that handles its own schema
	// issues: SchemaIssues), and decoded without error.
	Arguments json.RawMessage
	// Principal is the authenticated buyer (the zero Principal for an
	// anonymous call of a public tool).
	Principal Principal
	// Signer is the verified RFC 9421 signer of the request (Admit), nil
	// when it was not signed.
	Signer *signing.VerifiedSigner
	// Transport is TransportMCP or TransportA2A.
	Transport string
	// ContextID is the conversation id the buyer sent (the A2A contextId),
	// "" when none.
	ContextID string
	// Header is the header of the HTTP request that carried the call, nil
	// without one (stdio). Options.Observer reads the caller's trace
	// context from it (observe.PeerOf: propagation fields only).
	Header http.Header
	// Meta is the MCP request's params._meta, nil without: where an MCP
	// caller may put its trace context, read before Header.
	Meta map[string]any
	// Release is the AdCP release the call is served in, at wire precision
	// ("3.1", "3.2-beta.5"), as Serve resolved it from the request's
	// adcp_version and adcp_major_version (runtime/release): what the
	// answer echoes as adcp_version, and a telemetry attribute. "" before
	// Serve resolved it, for a call refused with VERSION_UNSUPPORTED, and
	// for a spec version that is no AdCP release.
	Release string

	args    wire.Lenient     // Arguments, parsed
	issues  []validate.Issue // violations the tool handles itself (SchemaIssues)
	request any              // the strictly decoded request (*Q)
	entry   *entry
	started *startedTask // the task StartTask created in this call
	srv     *Server
	ctx     context.Context // the context Serve runs the call in, for its logs (nil before)
	bridged *bridged        // the call of another release this one answers (Bridge)
}

// logContext is the context the server logs about c in: the call's own,
// which carries its trace, or Background before Serve.
func (c *Call) logContext() context.Context {
	if c.ctx == nil {
		return context.Background()
	}
	return c.ctx
}

// Member returns the top-level member name of the arguments as raw JSON
// ("idempotency_key" gives `"abc"`), nil when absent.
func (c *Call) Member(name string) json.RawMessage {
	if c.args == nil {
		v, err := wire.ParseLenient(c.Arguments)
		if err != nil {
			return nil
		}
		c.args = v
	}
	return c.args.Get(name).Raw()
}

// StringMember returns a top-level string member ("idempotency_key"),
// unescaped, and false when it is absent or not a string.
func (c *Call) StringMember(name string) (string, bool) {
	return wire.Lenient(c.Member(name)).AsString()
}

// SchemaIssues are the request-schema violations of a call whose tool
// handles them itself (RawTool.OwnsSchemaIssues); nil otherwise, and for
// a valid request.
func (c *Call) SchemaIssues() []validate.Issue { return c.issues }

// Canonical is the canonical form of the arguments without the members
// named in exclude (see sellerstore.Canonical): what an idempotency
// fingerprint hashes.
func (c *Call) Canonical(exclude ...string) ([]byte, error) {
	return sellerstore.Canonical(c.Arguments, exclude...)
}

// Context returns the request's context object as received (nil when
// absent): the server echoes it in every answer.
func (c *Call) Context() json.RawMessage {
	ctx := c.Member("context")
	if !wire.Lenient(ctx).IsObject() {
		return nil
	}
	return ctx
}

// echoedContextID is the conversation id an answer carries when its
// handler gave none: an MCP call's own context_id argument, echoed (A2A
// carries the conversation in the task's contextId instead).
func (c *Call) echoedContextID() string {
	if c.Transport == TransportA2A {
		return ""
	}
	s, _ := c.StringMember("context_id")
	return s
}

// Answer is what the server sends for a call, before a transport puts it
// in its envelope: a response or interim payload (Body), or an AdCP error.
// Middleware may return one instead of calling the handler; the
// idempotency layer stores one and replays it.
type Answer struct {
	// Status is the task status: Completed for a response, an interim
	// status for an interim payload, Failed for an AdCP error or a
	// response that reports failure.
	Status task.Status
	// TaskID is the AdCP task id; empty for a synchronous answer.
	TaskID string
	// Message is a short human-readable summary (MCP text content, A2A
	// TextPart, and the envelope's message in the body where the schema
	// has one). Never put secrets or upstream detail in it.
	Message string
	// ContextID is the seller's conversation id (task.Result.ContextID):
	// the envelope's context_id in the body where the schema has one.
	// Empty for none; an MCP call's own context_id is echoed then.
	ContextID string
	// Body is the response object as it goes on the wire: the payload,
	// encoded, with the protocol envelope's members the server fills
	// (status, task_id, message, context_id, replayed: see
	// registry.Envelope) and the request's context echoed. nil when Error
	// is set.
	Body json.RawMessage
	// Error is the AdCP error sent instead of a body.
	Error *adcperr.Error
	// Context is the request's context object, echoed by transports beside
	// an error (Body already carries it).
	Context json.RawMessage
	// Replayed marks an answer replayed for an idempotency key (the
	// envelope's replayed field).
	Replayed bool
	// Release is the AdCP release the answer was served in ("3.1"), which
	// Body carries as adcp_version and an error's object beside adcp_error
	// (ErrorObject); "" when none was (VERSION_UNSUPPORTED).
	Release string

	echoed *Call       // the call whose context Body already echoes
	filled *filledBody // what Body's envelope was filled from, by resultAnswer
}

// filledBody is a body a typed handler's answer was encoded to, with the
// envelope values its members were filled from and the message it
// carries: finish sends it as it is while the answer still says the same.
// compact: the body is compact JSON (the strict encoder's, and a context
// echoed that was compact).
type filledBody struct {
	v       envelopeValues
	body    []byte
	spans   []wire.Span // where body's members lie, nil when unknown
	message string
	compact bool
}

// Compact reports a Body the server encoded itself as compact JSON in
// valid UTF-8 (no whitespace between tokens): a transport may copy it as
// it is where its SDK would compact it. False when unknown.
func (a *Answer) Compact() bool {
	return a.filled != nil && a.filled.compact && sameBytes(a.filled.body, a.Body)
}

// Spans reports where each member of Body lies (wire.Span offsets into
// Body), as the server encoded it, so that a transport may take the
// members apart without reading Body again; nil when unknown.
func (a *Answer) Spans() []wire.Span {
	if a.filled == nil || !sameBytes(a.filled.body, a.Body) {
		return nil
	}
	return a.filled.spans
}

// IsError reports an AdCP error answer.
func (a *Answer) IsError() bool { return a.Error != nil }

// Dispatch answers one call. The server's own dispatch decodes nothing
// (the call is already decoded and valid) and runs the tool's handler.
type Dispatch func(ctx context.Context, c *Call) *Answer

// Middleware wraps the dispatch of every call: it runs after the request
// was read strictly and validated, before the handler, and may answer
// instead of calling next. Answers it makes get the request's context
// echoed like any other.
type Middleware func(next Dispatch) Dispatch

// ErrorAnswer is the answer carrying e, with status failed.
func ErrorAnswer(e *adcperr.Error) *Answer {
	return &Answer{Status: task.Failed, Error: e}
}

type callKey struct{}

// callFrom returns the call ctx was made for (handlers, StartTask).
func callFrom(ctx context.Context) *Call {
	c, _ := ctx.Value(callKey{}).(*Call)
	return c
}

// CallFrom returns the call a handler's ctx belongs to, nil outside a
// call.
func CallFrom(ctx context.Context) *Call { return callFrom(ctx) }
