package seller

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// ToolResult is an MCP CallToolResult as an AdCP seller sends it.
type ToolResult struct {
	Content           []TextContent   `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// TextContent is an MCP text content item.
type TextContent struct {
	Type string `json:"type"` // always "text"
	Text string `json:"text"`
}

func text(s string) TextContent { return TextContent{Type: "text", Text: s} }

// NewToolSuccess builds a success result: one terse text item (a sentence
// for humans and models; the data is not repeated there) and the response
// object as structuredContent. data is a JSON object: raw bytes
// (json.RawMessage, []byte) or a value json.Marshal turns into one, such as
// a generated response type.
func NewToolSuccess(summary string, data any) (*ToolResult, error) {
	raw, err := objectJSON(data)
	if err != nil {
		return nil, fmt.Errorf("tool success: %w", err)
	}
	if raw.OnlyKey("adcp_error") {
		return nil, errors.New("tool success: data holds only adcp_error; use NewToolError")
	}
	return &ToolResult{Content: []TextContent{text(summary)}, StructuredContent: raw.Raw()}, nil
}

// NewToolError builds an error result: isError true, the adcp_error JSON as
// content[0].text for text-only clients, the same object in
// structuredContent.adcp_error, and, when terse is not empty, a second text
// item with one human sentence (keep it short: the details are already in
// the JSON).
func NewToolError(e *adcperr.Error, terse string) (*ToolResult, error) {
	wrapped, err := adcpErrorJSON(e)
	if err != nil {
		return nil, err
	}
	r := &ToolResult{
		Content:           []TextContent{text(string(wrapped))},
		StructuredContent: wrapped,
		IsError:           true,
	}
	if terse != "" {
		r.Content = append(r.Content, text(terse))
	}
	return r, nil
}

// adcpErrorJSON is {"adcp_error": <wire error>}.
func adcpErrorJSON(e *adcperr.Error) (json.RawMessage, error) {
	w, err := e.WireJSON()
	if err != nil {
		return nil, err
	}
	return json.RawMessage(`{"adcp_error":` + string(w) + `}`), nil
}

// objectJSON turns data into compact JSON text that must be an object:
// raw bytes, or a value json.Marshal encodes (a generated type).
func objectJSON(data any) (wire.Lenient, error) {
	var raw []byte
	switch d := data.(type) {
	case nil:
		return nil, errors.New("no data")
	case json.RawMessage:
		raw = d
	case []byte:
		raw = d
	default:
		var err error
		if raw, err = json.Marshal(d); err != nil {
			return nil, err
		}
	}
	v, err := wire.ParseLenient(raw)
	if err != nil {
		return nil, err
	}
	if !v.IsObject() {
		return nil, fmt.Errorf("want a JSON object, got %s", kindName(v))
	}
	return wire.Lenient(v.AppendCompact(nil)), nil
}

func kindName(v wire.Lenient) string {
	switch {
	case v.IsArray():
		return "an array"
	case v.IsString():
		return "a string"
	case v.IsNull():
		return "null"
	case v.IsNumber():
		return "a number"
	}
	return "a boolean"
}

// isWrapper reports the framework-wrapper bug buyers reject: a single key
// "response" holding an object.
func isWrapper(data wire.Lenient) bool {
	return data.OnlyKey("response") && data.Get("response").IsObject()
}

// Reserved JSON-RPC error codes, for infrastructure that rejects a request
// before tool dispatch. Every other AdCP error uses the tool-level path.
const (
	JSONRPCRateLimited        int64 = -32029 // RATE_LIMITED
	JSONRPCAuthMissing        int64 = -32028 // AUTH_MISSING (formerly AUTH_REQUIRED)
	JSONRPCServiceUnavailable int64 = -32027 // SERVICE_UNAVAILABLE
)

// JSONRPCCodeFor returns the reserved JSON-RPC code for an AdCP code that
// may travel as a transport error.
func JSONRPCCodeFor(code string) (int64, bool) {
	switch code {
	case "RATE_LIMITED":
		return JSONRPCRateLimited, true
	case "AUTH_MISSING", "AUTH_REQUIRED", "AUTH_INVALID":
		return JSONRPCAuthMissing, true
	case "SERVICE_UNAVAILABLE":
		return JSONRPCServiceUnavailable, true
	}
	return 0, false
}

// JSONRPCCodeName names the AdCP code a reserved JSON-RPC code stands for
// (-32028 is AUTH_MISSING, formerly AUTH_REQUIRED). It is for logs and
// display: buyers classify by error.data.adcp_error, never by this code.
func JSONRPCCodeName(code int64) (string, bool) {
	switch code {
	case JSONRPCRateLimited:
		return "RATE_LIMITED", true
	case JSONRPCAuthMissing:
		return "AUTH_MISSING", true
	case JSONRPCServiceUnavailable:
		return "SERVICE_UNAVAILABLE", true
	}
	return "", false
}

// JSONRPCError is a JSON-RPC error object.
type JSONRPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *JSONRPCError) Error() string {
	return "JSON-RPC error " + strconv.FormatInt(e.Code, 10) + ": " + untrusted.SanitizeTruncate(e.Message, untrusted.MaxMessageBytes)
}

var jsonrpcMessages = map[int64]string{
	JSONRPCRateLimited:        "Rate limit exceeded",
	JSONRPCAuthMissing:        "Authentication required",
	JSONRPCServiceUnavailable: "Service unavailable",
}

// NewJSONRPCError builds the transport-level error for infrastructure
// rejections: the reserved code for e.Code, a fixed terse message, and
// data.adcp_error. Codes without a reserved JSON-RPC code are an error:
// return them as tool-level results (NewToolError).
func NewJSONRPCError(e *adcperr.Error) (*JSONRPCError, error) {
	code, ok := JSONRPCCodeFor(e.Code)
	if !ok {
		return nil, fmt.Errorf("adcp error %s has no reserved JSON-RPC code; return it as a tool result", untrusted.Sanitize(e.Code))
	}
	data, err := adcpErrorJSON(e)
	if err != nil {
		return nil, err
	}
	return &JSONRPCError{Code: code, Message: jsonrpcMessages[code], Data: data}, nil
}

// JSONRPCErrorResponse is a complete JSON-RPC error response.
type JSONRPCErrorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *JSONRPCError   `json:"error"`
}

// NewJSONRPCErrorResponse wraps NewJSONRPCError in a response for request
// id (raw JSON: a string, a number, or null).
func NewJSONRPCErrorResponse(id json.RawMessage, e *adcperr.Error) (*JSONRPCErrorResponse, error) {
	je, err := NewJSONRPCError(e)
	if err != nil {
		return nil, err
	}
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return &JSONRPCErrorResponse{JSONRPC: "2.0", ID: id, Error: je}, nil
}

// A2A wire types, enough for a seller to answer without an A2A library
// (runtime/a2ago converts to and from github.com/a2aproject/a2a-go).

// A2ATask is an A2A Task.
type A2ATask struct {
	ID        string        `json:"id"`
	ContextID string        `json:"contextId,omitempty"`
	Kind      string        `json:"kind"` // "task"
	Status    A2AStatus     `json:"status"`
	Artifacts []A2AArtifact `json:"artifacts,omitempty"`
}

// A2AStatus is a task status.
type A2AStatus struct {
	State     string      `json:"state"`
	Timestamp string      `json:"timestamp,omitempty"`
	Message   *A2AMessage `json:"message,omitempty"`
}

// A2AMessage is a status message.
type A2AMessage struct {
	Kind      string    `json:"kind"` // "message"
	MessageID string    `json:"messageId,omitempty"`
	Role      string    `json:"role"`
	Parts     []A2APart `json:"parts"`
}

// A2AArtifact is a task artifact.
type A2AArtifact struct {
	ArtifactID string    `json:"artifactId"`
	Parts      []A2APart `json:"parts"`
}

// A2APart is a TextPart (Text set) or a DataPart (Data set).
type A2APart struct {
	Text     string
	Data     json.RawMessage
	Metadata map[string]string
}

// MarshalJSON writes {"kind":"text","text":...} or {"kind":"data","data":...}.
func (p A2APart) MarshalJSON() ([]byte, error) {
	type textPart struct {
		Kind     string            `json:"kind"`
		Text     string            `json:"text"`
		Metadata map[string]string `json:"metadata,omitempty"`
	}
	type dataPart struct {
		Kind     string            `json:"kind"`
		Data     json.RawMessage   `json:"data"`
		Metadata map[string]string `json:"metadata,omitempty"`
	}
	if p.Data != nil {
		return json.Marshal(dataPart{"data", p.Data, p.Metadata})
	}
	return json.Marshal(textPart{"text", p.Text, p.Metadata})
}

// ErrorMIMEType is the optional metadata.mimeType of an error DataPart.
const ErrorMIMEType = "application/vnd.adcp.error+json"

// NewA2AFailedTask builds a failed task: state failed, and an artifact
// "error-result" holding a TextPart (text, or TerseText(e) when empty) and a
// DataPart {"adcp_error": ...} tagged with ErrorMIMEType.
func NewA2AFailedTask(taskID, contextID string, e *adcperr.Error, text string, at time.Time) (*A2ATask, error) {
	data, err := adcpErrorJSON(e)
	if err != nil {
		return nil, err
	}
	if text == "" {
		text = TerseText(e)
	}
	return &A2ATask{
		ID: taskID, ContextID: contextID, Kind: "task",
		Status: A2AStatus{State: "failed", Timestamp: timestamp(at)},
		Artifacts: []A2AArtifact{{ArtifactID: "error-result", Parts: []A2APart{
			{Text: text},
			{Data: data, Metadata: map[string]string{"mimeType": ErrorMIMEType}},
		}}},
	}, nil
}

// NewA2ACompletedTask builds a completed task whose artifact "result" holds
// a TextPart and the response object as its only DataPart (never wrapped).
func NewA2ACompletedTask(taskID, contextID string, data any, text string, at time.Time) (*A2ATask, error) {
	raw, err := objectJSON(data)
	if err != nil {
		return nil, fmt.Errorf("a2a task data: %w", err)
	}
	if isWrapper(raw) {
		return nil, errors.New("a2a task data: a {response: {...}} wrapper, which buyers reject")
	}
	parts := []A2APart{{Data: raw.Raw()}}
	if text != "" {
		parts = append([]A2APart{{Text: text}}, parts...)
	}
	return &A2ATask{
		ID: taskID, ContextID: contextID, Kind: "task",
		Status:    A2AStatus{State: "completed", Timestamp: timestamp(at)},
		Artifacts: []A2AArtifact{{ArtifactID: "result", Parts: parts}},
	}, nil
}

func timestamp(at time.Time) string {
	if at.IsZero() {
		return ""
	}
	return at.UTC().Format(time.RFC3339)
}

// TerseText is a one-sentence summary of an error for a text item or
// TextPart: "RATE_LIMITED: retry in 5s." It uses only the code, class and
// delay, never seller prose.
func TerseText(e *adcperr.Error) string {
	s := untrusted.Sanitize(e.Code)
	switch e.Recovery {
	case registry.Transient:
		if e.RetryAfter > 0 {
			d, _ := adcperr.NormalizeRetryAfter(e.RetryAfter.Seconds())
			return s + ": retry in " + strconv.FormatInt(int64(d/time.Second), 10) + "s."
		}
		return s + ": temporary failure, retry later."
	case registry.Correctable:
		return s + ": the request needs a change."
	case registry.Terminal:
		return s + ": needs human attention."
	}
	return s + "."
}
