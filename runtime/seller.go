package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Seller side: how an AdCP agent puts results and errors on the wire (the
// transport-error specification and the MCP response-format ADR).

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
	if raw.onlyKey("adcp_error") {
		return nil, errors.New("tool success: data holds only adcp_error; use NewToolError")
	}
	return &ToolResult{Content: []TextContent{text(summary)}, StructuredContent: raw.raw()}, nil
}

// NewToolError builds an error result: isError true, the adcp_error JSON as
// content[0].text for text-only clients, the same object in
// structuredContent.adcp_error, and, when terse is not empty, a second text
// item with one human sentence (keep it short: the details are already in
// the JSON).
func NewToolError(e *Error, terse string) (*ToolResult, error) {
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
func adcpErrorJSON(e *Error) (json.RawMessage, error) {
	w, err := e.WireJSON()
	if err != nil {
		return nil, err
	}
	return json.RawMessage(`{"adcp_error":` + string(w) + `}`), nil
}

// WireJSON returns the adcp_error object a seller sends and checks it the
// way buyers will: code a string of 1-64 characters, message present, a
// valid recovery (filled from the built-in table when empty), retry_after
// as whole seconds in [1, 3600], details an object, at most 4096 bytes in
// all. An error extracted from a response (Raw set) is passed through
// unchanged, after the same size and code checks.
func (e *Error) WireJSON() (json.RawMessage, error) {
	if e == nil {
		return nil, errors.New("adcp error: nil")
	}
	if len(e.Raw) > 0 {
		v, err := parseDocument(e.Raw)
		if err != nil {
			return nil, fmt.Errorf("adcp error %s: raw object: %w", Sanitize(e.Code), err)
		}
		if why := validateError(v); why != rejectNone {
			return nil, fmt.Errorf("adcp error %s: %s", Sanitize(e.Code), why)
		}
		return appendCompact(nil, v), nil
	}
	if e.Code == "" || utf16Len(e.Code) > MaxCodeLength {
		return nil, fmt.Errorf("adcp error: code %q is not 1-64 characters", e.Code)
	}
	if e.Message == "" {
		return nil, fmt.Errorf("adcp error %s: message is required", e.Code)
	}
	rec := e.Recovery
	if rec == "" {
		rec = Classifier{}.Recovery(e.Code)
	}
	if !rec.Valid() {
		return nil, fmt.Errorf("adcp error %s: recovery %q is not transient, correctable or terminal", e.Code, rec)
	}
	var b bytes.Buffer
	b.WriteString(`{"code":`)
	writeJSON(&b, e.Code)
	b.WriteString(`,"message":`)
	writeJSON(&b, e.Message)
	b.WriteString(`,"recovery":`)
	writeJSON(&b, string(rec))
	if e.RetryAfter > 0 {
		d, _ := NormalizeRetryAfter(e.RetryAfter.Seconds())
		b.WriteString(`,"retry_after":`)
		b.WriteString(strconv.FormatInt(int64(d/time.Second), 10))
	}
	if e.Field != "" {
		b.WriteString(`,"field":`)
		writeJSON(&b, e.Field)
	}
	if e.Suggestion != "" {
		b.WriteString(`,"suggestion":`)
		writeJSON(&b, e.Suggestion)
	}
	if len(e.Issues) > 0 {
		b.WriteString(`,"issues":`)
		writeJSON(&b, e.Issues)
	}
	if e.Details != nil {
		d, err := objectJSON(e.Details)
		if err != nil {
			return nil, fmt.Errorf("adcp error %s: details: %w", e.Code, err)
		}
		b.WriteString(`,"details":`)
		b.Write(d)
	}
	b.WriteByte('}')
	if n := b.Len(); n > MaxErrorBytes {
		return nil, fmt.Errorf("adcp error %s: %d bytes, more than the %d buyers accept (shrink details)", e.Code, n, MaxErrorBytes)
	}
	return json.RawMessage(b.Bytes()), nil
}

// MarshalJSON writes WireJSON.
func (e *Error) MarshalJSON() ([]byte, error) { return e.WireJSON() }

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings and Issues always encode
	b.Truncate(b.Len() - 1)
}

// objectJSON turns data into compact JSON text that must be an object.
func objectJSON(data any) (jval, error) {
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
	v, err := parseDocument(raw)
	if err != nil {
		return nil, err
	}
	if !v.isObject() {
		return nil, fmt.Errorf("want a JSON object, got %s", kindName(v))
	}
	return jval(appendCompact(nil, v)), nil
}

func kindName(v jval) string {
	switch {
	case v.isArray():
		return "an array"
	case v.isString():
		return "a string"
	case v.isNull():
		return "null"
	case v.isNumber():
		return "a number"
	}
	return "a boolean"
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
	case "AUTH_MISSING", "AUTH_REQUIRED":
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
	return "JSON-RPC error " + strconv.FormatInt(e.Code, 10) + ": " + SanitizeTruncate(e.Message, MaxMessageBytes)
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
func NewJSONRPCError(e *Error) (*JSONRPCError, error) {
	code, ok := JSONRPCCodeFor(e.Code)
	if !ok {
		return nil, fmt.Errorf("adcp error %s has no reserved JSON-RPC code; return it as a tool result", Sanitize(e.Code))
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
func NewJSONRPCErrorResponse(id json.RawMessage, e *Error) (*JSONRPCErrorResponse, error) {
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
func NewA2AFailedTask(taskID, contextID string, e *Error, text string, at time.Time) (*A2ATask, error) {
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
		return nil, fmt.Errorf("a2a task data: %w", ErrWrapperDetected)
	}
	parts := []A2APart{{Data: raw.raw()}}
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
func TerseText(e *Error) string {
	s := Sanitize(e.Code)
	rec := e.Recovery
	if rec == "" {
		rec = Classifier{}.Recovery(e.Code)
	}
	switch {
	case rec == RecoveryTransient && e.RetryAfter > 0:
		d, _ := NormalizeRetryAfter(e.RetryAfter.Seconds())
		return s + ": retry in " + strconv.FormatInt(int64(d/time.Second), 10) + "s."
	case rec == RecoveryTransient:
		return s + ": temporary failure, retry later."
	case rec == RecoveryCorrectable:
		return s + ": the request needs a change."
	case rec == RecoveryTerminal:
		return s + ": needs human attention."
	}
	return s + "."
}
