package extract

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Problem is why an envelope yielded nothing usable. It is an error; its
// value is the word the conformance vectors use ("wrapper_detected",
// "invalid_json", "too_large"). Result.Problem wraps one with detail.
type Problem string

const (
	// ErrWrapperDetected: an A2A final-state DataPart is a framework wrapper
	// {"response": {...}}, a server-side bug. It is never unwrapped.
	ErrWrapperDetected Problem = "wrapper_detected"
	// ErrInvalidJSON: the envelope is not JSON.
	ErrInvalidJSON Problem = "invalid_json"
	// ErrTooLarge: nothing was extracted and something was skipped for
	// exceeding a size cap.
	ErrTooLarge Problem = "too_large"
)

func (p Problem) Error() string {
	switch p {
	case ErrWrapperDetected:
		return "A2A DataPart is a {response: {...}} wrapper (server-side bug)"
	case ErrInvalidJSON:
		return "envelope is not valid JSON"
	case ErrTooLarge:
		return "payload exceeds a size cap"
	}
	return "extraction problem " + string(p)
}

// Failures Result.Failure reports when there is neither data nor an AdCP
// error.
var (
	// ErrNoData: the envelope carries no AdCP data and no error.
	ErrNoData = errors.New("envelope carries no AdCP data")
	// ErrUnstructuredFailure: the envelope reports a failure without a
	// usable structured AdCP error; handle it as a generic error.
	ErrUnstructuredFailure = errors.New("failure without a structured AdCP error")
)

// Form is what an envelope was recognised as.
type Form string

const (
	// FormUnknown: none of the forms below (or not JSON); Failure says what
	// the envelope was instead.
	FormUnknown Form = ""
	// FormToolResult: an MCP CallToolResult.
	FormToolResult Form = "mcp_tool_result"
	// FormJSONRPC: a JSON-RPC response; its result was read as the
	// transport's envelope (DataPath and Error.Path start with "result.")
	// and its error for error.data.adcp_error.
	FormJSONRPC Form = "jsonrpc_response"
	// FormTask: an A2A Task or TaskStatusUpdateEvent.
	FormTask Form = "a2a_task"
	// FormStream: an A2A stream response or push payload, {"task": …},
	// {"statusUpdate": …}, {"message": …} or {"artifactUpdate": …}.
	FormStream Form = "a2a_stream_response"
	// FormMCPWebhook: an MCP webhook payload {"task_id", "status",
	// "result", ...}.
	FormMCPWebhook Form = "mcp_webhook"
)

// Result is what one envelope yielded. Each fact is in one place: the data
// in Data, the structured error in Error (its RetryAfter is the delay), the
// decision in Action, and what went wrong in Problem.
type Result struct {
	// Form is what the envelope was recognised as.
	Form Form
	// State is the A2A task state (normalised: "input-required") or the
	// MCP webhook status; "" when the envelope has none.
	State string
	// Data is the extracted success data, the sender's bytes untouched
	// (prototype keys, duplicate keys and all): decode it with a strict
	// generated type (the Decode methods do). nil when there is none.
	Data json.RawMessage
	// Task is the A2A task, status or artifact event, or message the
	// envelope held, once a JSON-RPC result and one stream envelope are
	// unwrapped: where its ids (id, taskId, contextId, the artifacts'
	// metadata) are read. nil for MCP forms, and when what A2A reading
	// found is not an object or is a stream envelope nested in another.
	Task wire.Lenient
	// DataPath says where Data came from: "structuredContent",
	// "content[1].text", "artifacts[0].parts[2].data",
	// "result.task.status.message.parts[1].data", "result".
	DataPath string
	// Error is the structured AdCP error, validated, or nil.
	Error *adcperr.Error
	// Action is what to do: the error's action, ActionGeneric for a
	// failure without a usable structured error, or "" when there is
	// nothing to act on (success, progress, an empty envelope).
	Action adcperr.Action
	// Problem is set when something prevented extraction; it wraps
	// ErrInvalidJSON, ErrTooLarge or ErrWrapperDetected.
	Problem error

	// shape describes an unrecognised envelope for Failure.
	shape string
}

// Failure returns the error a caller should act on, or nil when Data is
// there to decode: the *adcperr.Error first, then the Problem, then, when
// there is no data, ErrUnstructuredFailure for a reported failure or
// ErrNoData (naming what the envelope was when it was not a recognised
// form). Data from a failed A2A task without adcp_error (a task response's
// errors branch, say) is returned for decoding; check State if that
// matters.
func (r *Result) Failure() error {
	switch {
	case r.Error != nil:
		return r.Error
	case r.Problem != nil:
		return r.Problem
	case r.Data != nil:
		return nil
	case r.Action == adcperr.ActionGeneric:
		if r.State != "" {
			return fmt.Errorf("%w (state %s)", ErrUnstructuredFailure, r.State)
		}
		return ErrUnstructuredFailure
	case r.shape != "":
		return fmt.Errorf("%w: %s", ErrNoData, r.shape)
	}
	return ErrNoData
}

// parse reads the envelope or records the invalid_json problem.
func parse(envelope []byte, r *Result) (wire.Lenient, bool) {
	v, err := wire.ParseLenient(envelope)
	if err != nil {
		r.Problem = fmt.Errorf("%w: %w", ErrInvalidJSON, err)
		return nil, false
	}
	return v, true
}

// found tracks side observations during one extraction.
type found struct {
	// tooLarge: some input was skipped for exceeding a size cap; the
	// largest such, with its size and cap, says which.
	tooLarge        bool
	bigWhat         string
	bigSize, bigCap int
	// errorOnly: an adcp_error-only object was met where success data was
	// looked for (an error response missing its isError flag).
	errorOnly bool
}

// finish fills Action from the error and records the too_large problem.
func (r *Result) finish(f *found, generic bool) {
	switch {
	case r.Error != nil:
		r.Action = r.Error.Action()
	case generic:
		r.Action = adcperr.ActionGeneric
	}
	if r.Problem == nil && r.Data == nil && r.Error == nil && f.tooLarge {
		r.Problem = fmt.Errorf("%w: %s is %d bytes, over the cap of %d", ErrTooLarge, f.bigWhat, f.bigSize, f.bigCap)
	}
}

// skipped records what was skipped for exceeding a size cap.
func (f *found) skipped(what string, size, limit int) {
	f.tooLarge = true
	if size > f.bigSize {
		f.bigWhat, f.bigSize, f.bigCap = what, size, limit
	}
}

// describe names an envelope that is none of the forms wanted, for
// Failure: its JSON kind, or an object's first keys (sanitised).
func describe(v wire.Lenient, want string) string {
	var got string
	switch {
	case !v.Present():
		got = "nothing"
	case v.IsArray():
		got = "a JSON array"
	case v.IsString():
		got = "a JSON string"
	case v.IsNull():
		got = "JSON null"
	case v.IsNumber():
		got = "a JSON number"
	case !v.IsObject():
		got = "a JSON boolean"
	default:
		var keys []string
		v.Members(func(k, _ wire.Lenient) bool {
			s, _ := k.AsString()
			keys = append(keys, untrusted.SanitizeTruncate(s, 32))
			return len(keys) < 6
		})
		sort.Strings(keys)
		got = "an object with keys [" + strings.Join(keys, " ") + "]"
		if len(keys) == 0 {
			got = "an empty object"
		}
	}
	return "got " + got + ", want " + want
}
