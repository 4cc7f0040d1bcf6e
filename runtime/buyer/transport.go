package buyer

import (
	"context"
	"encoding/json"
	"fmt"
)

// Protocol names the transport an envelope came over, which decides how it
// is extracted.
type Protocol string

const (
	// MCP: the envelope is a JSON-RPC response to tools/call (a
	// CallToolResult in result, or an error).
	MCP Protocol = "mcp"
	// A2A: the envelope is a JSON-RPC response to message/send or
	// tasks/get (a Task or a Message in result, or an error).
	A2A Protocol = "a2a"
)

// ToolCall is one call a Transport sends.
type ToolCall struct {
	// Tool is the tool (MCP) or skill (A2A) name.
	Tool string
	// Args are the request's JSON bytes as the strict encoder wrote them
	// (with the idempotency key the client added). Sent as they are: MCP
	// tools/call arguments, the A2A DataPart's input.
	Args json.RawMessage
	// ContextID continues an A2A conversation (the message's contextId);
	// MCP carries context_id in Args instead, and its transports ignore
	// this field.
	ContextID string
	// TaskID continues an A2A task that asked for input (the message's
	// taskId); empty otherwise. MCP transports ignore it.
	TaskID string
	// Trace is the trace context the client's Observer propagates
	// (traceparent, tracestate, baggage: field name to value), nil
	// without one. Transports send each field as an HTTP header and, over
	// MCP, in params._meta too, where the MCP semantic conventions put it.
	Trace map[string]string
}

// Exchange is a seller's answer to one call, as it arrived.
type Exchange struct {
	Protocol Protocol
	// Envelope is the seller's JSON-RPC response, byte for byte as it
	// arrived (one server-sent event's data for a streamed answer).
	Envelope json.RawMessage
	// Exact is false when the transport could not see the bytes and
	// rebuilt the response around the undecoded parts its SDK kept.
	Exact bool
}

// Transport sends tool calls to one seller agent and returns the seller's
// exact response bytes. runtime/mcpclient (Session) and runtime/a2aclient
// (Conn) provide Transports over the official MCP Go SDK and a2a-go; the
// client never sees an SDK's decoded maps.
//
// CallTool returns an error only when there is no JSON-RPC response to
// extract: the connection failed, the HTTP status was not a success and the
// body held no JSON-RPC response, the response envelope was malformed, or
// the context ended (its error is wrapped). A failure to reach the seller
// should be, or wrap, a *TransportError so the client can tell whether a
// retry is safe.
type Transport interface {
	// Protocol says how the seller's answers are extracted, and where a
	// conversation's context id goes (MCP: the context_id argument; A2A:
	// the message's contextId).
	Protocol() Protocol
	CallTool(ctx context.Context, call ToolCall) (*Exchange, error)
}

// ToolLister is a Transport that can name the seller's tools (MCP
// tools/list; the skills of an A2A agent card).
type ToolLister interface {
	ToolNames(ctx context.Context) ([]string, error)
}

// TransportError is a call that got no JSON-RPC response.
type TransportError struct {
	// Op says what failed ("POST https://seller.example/mcp", "connect").
	Op string
	// StatusCode is the HTTP status when there was one, else 0.
	StatusCode int
	// Sent reports that the request may have reached the seller (it was
	// written before the failure), so a retry of a call without an
	// idempotency key could run it twice.
	Sent bool
	// Closed reports that the session or connection is closed for good
	// (the caller closed it, or the SDK gave it up): no retry on it can
	// succeed.
	Closed bool
	Err    error
}

func (e *TransportError) Error() string {
	if e.StatusCode != 0 {
		return fmt.Sprintf("%s: HTTP %d: %v", e.Op, e.StatusCode, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Op, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

// Transient reports a failure worth another attempt: no HTTP status (the
// connection failed or broke), or 408, 425, 429, 500, 502, 503 or 504, on a
// session that is not closed. Whether a retry is safe is another matter
// (see Sent).
func (e *TransportError) Transient() bool {
	if e.Closed {
		return false
	}
	switch e.StatusCode {
	case 0, 408, 425, 429, 500, 502, 503, 504:
		return true
	}
	return false
}
