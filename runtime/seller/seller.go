package seller

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// adcpErrorJSON is {"adcp_error": <wire error>}.
func adcpErrorJSON(e *adcperr.Error) (json.RawMessage, error) {
	w, err := e.WireJSON()
	if err != nil {
		return nil, err
	}
	return json.RawMessage(`{"adcp_error":` + string(w) + `}`), nil
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
// return them as tool-level results (seller.ErrorAnswer, which the
// transports send as a tool error or a failed task).
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

// ErrorMIMEType is the optional metadata.mimeType of an error DataPart.
const ErrorMIMEType = "application/vnd.adcp.error+json"

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
