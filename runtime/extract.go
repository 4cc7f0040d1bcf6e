package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/adcpgen/adcpgen/generated/adcp"
	"time"
)

// MaxPayloadBytes is the default cap on structuredContent (compact JSON
// text) and on each content[].text item (UTF-8 bytes, checked before
// parsing): 1 MiB.
const MaxPayloadBytes = 1 << 20

// Sentinel errors carried by Result.Err (wrapped with detail).
var (
	// ErrInvalidJSON: the envelope is not JSON.
	ErrInvalidJSON = errors.New("envelope is not valid JSON")
	// ErrTooLarge: nothing was extracted and something was skipped for
	// exceeding a size cap.
	ErrTooLarge = errors.New("payload exceeds a size cap")
	// ErrWrapperDetected: an A2A final-state DataPart is a framework wrapper
	// {"response": {...}}, a server-side bug. The runtime never unwraps it.
	ErrWrapperDetected = errors.New("A2A DataPart is a {response: {...}} wrapper (server-side bug)")
	// ErrNoData: the envelope carries no AdCP data and no error.
	ErrNoData = errors.New("envelope carries no AdCP data")
	// ErrUnstructuredFailure: the envelope reports a failure without a
	// usable structured AdCP error; handle it as a generic error.
	ErrUnstructuredFailure = errors.New("failure without a structured AdCP error")
)

// Problem is the short word for why an envelope yielded nothing usable.
type Problem string

const (
	ProblemNone            Problem = ""
	ProblemWrapperDetected Problem = "wrapper_detected"
	ProblemInvalidJSON     Problem = "invalid_json"
	ProblemTooLarge        Problem = "too_large"
)

// Transport names an envelope format.
type Transport string

const (
	TransportMCP     Transport = "mcp"     // an MCP CallToolResult
	TransportJSONRPC Transport = "jsonrpc" // a JSON-RPC response whose result is a CallToolResult
	TransportA2A     Transport = "a2a"     // an A2A Task, event or stream envelope
	TransportWebhook Transport = "webhook" // an MCP webhook payload or an A2A Task
)

// Result is what one envelope yielded.
type Result struct {
	// Data is the extracted success data, the sender's bytes untouched
	// (prototype keys, duplicate keys and all): decode it with Decode and a
	// strict generated type. nil when there is none.
	Data json.RawMessage
	// DataPath says where Data came from: "structuredContent",
	// "content[1].text", "artifacts[0].parts[2].data",
	// "status.message.parts[1].data" or "result".
	DataPath string
	// Error is the validated structured AdCP error, or nil.
	Error *Error
	// Action is what to do; "" when there is nothing to act on (success,
	// progress, or an envelope with nothing in it).
	Action Action
	// RetryAfter is the normalised delay when Action is retry and the
	// seller sent a usable retry_after; else 0 (use a backoff).
	RetryAfter time.Duration
	// Problem is set when something prevented extraction, with Err saying
	// what (it wraps ErrInvalidJSON, ErrTooLarge or ErrWrapperDetected).
	Problem Problem
	Err     error
	// State is the A2A task state (normalised: "input-required") or the
	// webhook status; "" when the envelope has none.
	State string
	// Format is the webhook format detected ("mcp" or "a2a"); webhooks only.
	Format WebhookFormat
}

// Extractor extracts AdCP data and errors from envelopes. The zero value is
// ready to use: built-in code table, unknown codes terminal, 1 MiB caps.
type Extractor struct {
	// Codes classifies codes sent without a recovery field; nil means
	// BuiltinCodes. Build it from the spec manifests you target
	// (LoadManifestCodes, UnionCodes, WithFallback).
	Codes *CodeTable
	// UnknownRecovery classifies codes no table lists; "" means terminal.
	UnknownRecovery Recovery
	// Details decodes error details into typed values; nil means
	// DefaultDetails.
	Details DetailsFactory
	// MaxPayloadBytes caps structuredContent and each text item; 0 means
	// 1 MiB.
	MaxPayloadBytes int
}

// DefaultDetails is the details factory an Extractor uses when its Details
// is nil: the error-details types of adcpgen's core package
// (github.com/adcpgen/adcpgen/generated/adcp), which cover the seven shapes
// the transport-error specification recommends. To use the shapes of a spec
// version you generated, set it once at start-up, before extracting
// concurrently: DefaultDetails = DetailsFrom(yourpkg.NewErrorDetails).
var DefaultDetails DetailsFactory = DetailsFrom(adcp.NewErrorDetails)

func (x Extractor) codes() *CodeTable {
	if x.Codes == nil {
		return builtinTable
	}
	return x.Codes
}

func (x Extractor) details() DetailsFactory {
	if x.Details != nil {
		return x.Details
	}
	return DefaultDetails
}

func (x Extractor) maxPayload() int {
	if x.MaxPayloadBytes <= 0 {
		return MaxPayloadBytes
	}
	return x.MaxPayloadBytes
}

// Extract dispatches on the transport. An unknown transport is an error.
func (x Extractor) Extract(t Transport, envelope []byte) (*Result, error) {
	switch t {
	case TransportMCP:
		return x.MCP(envelope), nil
	case TransportJSONRPC:
		return x.JSONRPC(envelope), nil
	case TransportA2A:
		return x.A2A(envelope), nil
	case TransportWebhook:
		return x.Webhook(envelope), nil
	}
	return nil, fmt.Errorf("unknown transport %q (want mcp, jsonrpc, a2a or webhook)", t)
}

// ExtractMCP is Extractor.MCP with the zero Extractor.
func ExtractMCP(envelope []byte) *Result { return Extractor{}.MCP(envelope) }

// ExtractJSONRPC is Extractor.JSONRPC with the zero Extractor.
func ExtractJSONRPC(envelope []byte) *Result { return Extractor{}.JSONRPC(envelope) }

// ExtractA2A is Extractor.A2A with the zero Extractor.
func ExtractA2A(envelope []byte) *Result { return Extractor{}.A2A(envelope) }

// ExtractWebhook is Extractor.Webhook with the zero Extractor.
func ExtractWebhook(payload []byte) *Result { return Extractor{}.Webhook(payload) }

// parse reads the envelope or fills r with the invalid_json problem.
func parse(envelope []byte, r *Result) (jval, bool) {
	v, err := parseDocument(envelope)
	if err != nil {
		r.Problem, r.Err = ProblemInvalidJSON, fmt.Errorf("%w: %w", ErrInvalidJSON, err)
		return nil, false
	}
	return v, true
}

// setError records a found error candidate: validated into r.Error, or
// counted as skipped-for-size.
func (x Extractor) setError(r *Result, f *found, cand jval, path string) {
	switch validateError(cand) {
	case rejectNone:
		r.Error = x.buildError(cand, path)
	case rejectTooLarge:
		f.tooLarge = true
	}
}

// finish fills Action/RetryAfter from the error and the too_large problem.
func (r *Result) finish(f *found, generic bool) {
	switch {
	case r.Error != nil:
		r.Action = r.Error.Action()
		if r.Action == ActionRetry {
			r.RetryAfter = r.Error.RetryAfter
		}
	case generic:
		r.Action = ActionGeneric
	}
	if r.Problem == ProblemNone && r.Data == nil && r.Error == nil && f.tooLarge {
		r.Problem, r.Err = ProblemTooLarge, ErrTooLarge
	}
}

// found tracks side observations during one extraction.
type found struct {
	// tooLarge: some input was skipped for exceeding a size cap.
	tooLarge bool
	// errorOnly: an adcp_error-only object was met where success data was
	// looked for (an error response missing its isError flag).
	errorOnly bool
}

// Failure returns the error a caller should act on, or nil when Data is
// there to decode: the *Error first, then the problem (Err), then, when
// there is no data, ErrUnstructuredFailure for a reported failure or
// ErrNoData. Data from a failed A2A task without adcp_error (say, a task
// response's errors branch) is returned for decoding; check State if that
// matters.
func (r *Result) Failure() error {
	switch {
	case r.Error != nil:
		return r.Error
	case r.Err != nil:
		return r.Err
	case r.Data != nil:
		return nil
	case r.Action == ActionGeneric:
		if r.State != "" {
			return fmt.Errorf("%w (state %s)", ErrUnstructuredFailure, r.State)
		}
		return ErrUnstructuredFailure
	}
	return ErrNoData
}
