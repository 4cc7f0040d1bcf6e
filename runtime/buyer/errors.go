package buyer

import (
	"errors"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// ErrNoResult is wrapped by a TaskError for a task that ended without a
// payload to decode.
var ErrNoResult = errors.New("the task ended without a result")

// ErrVersion is wrapped when a tool descriptor belongs to another spec
// version than the client's.
var ErrVersion = errors.New("tool descriptor of another spec version")

// TaskError reports a task that ended without a usable result and without
// a structured AdCP error: failed, canceled or rejected with no payload,
// completed with none, or a status AdCP does not define. An AdCP error the
// seller sent is an *adcperr.Error instead.
type TaskError struct {
	Tool   string
	TaskID string
	Status task.Status
	// Message is the seller's summary, untrusted (Error sanitises it).
	Message string
	// Err says why: ErrNoResult, extract.ErrUnstructuredFailure, ...
	Err error
}

func (e *TaskError) Error() string {
	var b strings.Builder
	b.WriteString("buyer: ")
	b.WriteString(e.Tool)
	if e.TaskID != "" {
		b.WriteString(": task ")
		b.WriteString(untrusted.SanitizeTruncate(e.TaskID, 128))
	}
	if e.Status != "" {
		b.WriteString(": ")
		b.WriteString(untrusted.SanitizeTruncate(string(e.Status), 64))
	}
	if m := untrusted.SanitizeTruncate(e.Message, 256); m != "" {
		b.WriteString(" (")
		b.WriteString(m)
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *TaskError) Unwrap() error { return e.Err }

// SellerDataError reports seller bytes the strict checks refused: a duplicate
// or prototype key, invalid UTF-8, a wrong type, a missing required field.
// Err is the *wire.DecodeError, whose Pointer is relative to Source.
type SellerDataError struct {
	Tool string
	// Source says where the bytes were: "result.structuredContent",
	// "result.content[0].text", "result.artifacts[0].parts[1].data", or
	// "envelope" for the whole JSON-RPC response.
	Source string
	// Type is the Go type decoded into, "" for the strict JSON check alone.
	Type string
	Err  error
}

func (e *SellerDataError) Error() string {
	var b strings.Builder
	b.WriteString("buyer: ")
	b.WriteString(e.Tool)
	b.WriteString(": seller payload at ")
	b.WriteString(e.Source)
	if e.Type != "" {
		b.WriteString(" as ")
		b.WriteString(e.Type)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *SellerDataError) Unwrap() error { return e.Err }
