package rpcerr

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// The JSON-RPC error codes AdCP reserves, for infrastructure that rejects
// a request before tool dispatch.
const (
	CodeRateLimited        int64 = -32029 // RATE_LIMITED
	CodeAuthMissing        int64 = -32028 // AUTH_MISSING (formerly AUTH_REQUIRED)
	CodeServiceUnavailable int64 = -32027 // SERVICE_UNAVAILABLE
)

// CodeFor returns the reserved JSON-RPC code for an AdCP code that may
// travel as a transport error.
func CodeFor(code string) (int64, bool) {
	switch code {
	case "RATE_LIMITED":
		return CodeRateLimited, true
	case "AUTH_MISSING", "AUTH_REQUIRED", "AUTH_INVALID":
		return CodeAuthMissing, true
	case "SERVICE_UNAVAILABLE":
		return CodeServiceUnavailable, true
	}
	return 0, false
}

// CodeName names the AdCP code a reserved JSON-RPC code stands for
// (-32028 is AUTH_MISSING, formerly AUTH_REQUIRED). It is for logs and
// display: buyers classify by error.data.adcp_error, never by this code.
func CodeName(code int64) (string, bool) {
	switch code {
	case CodeRateLimited:
		return "RATE_LIMITED", true
	case CodeAuthMissing:
		return "AUTH_MISSING", true
	case CodeServiceUnavailable:
		return "SERVICE_UNAVAILABLE", true
	}
	return "", false
}

// Object is a JSON-RPC error object.
type Object struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Object) Error() string {
	return "JSON-RPC error " + strconv.FormatInt(e.Code, 10) + ": " + untrusted.SanitizeTruncate(e.Message, untrusted.MaxMessageBytes)
}

var messages = map[int64]string{
	CodeRateLimited:        "Rate limit exceeded",
	CodeAuthMissing:        "Authentication required",
	CodeServiceUnavailable: "Service unavailable",
}

// New builds the error object for an infrastructure rejection: the
// reserved code for e.Code, a fixed terse message, and data.adcp_error.
// A code without a reserved JSON-RPC code is an error: return it as a
// tool-level result.
func New(e *adcperr.Error) (*Object, error) {
	code, ok := CodeFor(e.Code)
	if !ok {
		return nil, fmt.Errorf("adcp error %s has no reserved JSON-RPC code; return it as a tool result", untrusted.Sanitize(e.Code))
	}
	w, err := e.WireJSON()
	if err != nil {
		return nil, err
	}
	data := json.RawMessage(`{"adcp_error":` + string(w) + `}`)
	return &Object{Code: code, Message: messages[code], Data: data}, nil
}

// ErrorResponse is a complete JSON-RPC error response.
type ErrorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *Object         `json:"error"`
}

// NewResponse wraps New's error object in a response to request id (raw
// JSON: a string, a number, or null; nil is null).
func NewResponse(id json.RawMessage, e *adcperr.Error) (*ErrorResponse, error) {
	o, err := New(e)
	if err != nil {
		return nil, err
	}
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return &ErrorResponse{JSONRPC: "2.0", ID: id, Error: o}, nil
}
