package webhook

import (
	"encoding/json"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Notification is one verified webhook post: the task it reports on, its
// status, and its payload decoded strictly into the type the spec version
// gives that task type and status.
//
// Every string in it came from the seller: route on TaskType and Status,
// and sanitise Message (runtime/untrusted) before showing it.
type Notification struct {
	// Form is extract.FormMCPWebhook for an MCP webhook payload, or
	// extract.FormTask / extract.FormStream for an A2A push.
	Form extract.Form
	// TaskType is the AdCP task type ("create_media_buy"), from the URL
	// route or the payload's task_type.
	TaskType string
	// TaskID is the seller's task id (task_id; for A2A the artifact's
	// adcp_task_id metadata, else the A2A task id).
	TaskID string
	Status task.Status
	// ContextID is context_id (MCP) or contextId (A2A).
	ContextID string
	// OperationID is the buyer's operation id the seller echoed (MCP
	// operation_id), or the route's when the payload has none.
	OperationID string
	// IdempotencyKey is the sender's key for this event (AdCP 3.1 and
	// later); the receiver drops a second post with the same key.
	IdempotencyKey string
	// Timestamp is the payload's timestamp (MCP) or status.timestamp (A2A),
	// as sent.
	Timestamp string
	// Message is the seller's human-readable summary (MCP message; the
	// first text part of an A2A status message). Untrusted.
	Message string
	// Payload is the result decoded into the spec's type for TaskType and
	// Status: the terminal result type (task_result_resolution) for a final
	// status, the tool's async response type for an interim one. nil when
	// the post carried no result, when it carried an AdCP error (see Err),
	// or when the spec has no type for the status (see Data).
	Payload wire.Value
	// Data is the result's raw bytes as sent ("result" for MCP, the A2A
	// DataPart), nil when there was none.
	Data json.RawMessage
	// Err is the AdCP error the post reported (an adcp_error in the
	// result), nil otherwise.
	Err *adcperr.Error
	// Body is the whole verified request body.
	Body json.RawMessage
	// Signer is the seller whose RFC 9421 signature verified (keyid, and
	// the agent URL its key source vouches for); nil for a post verified
	// with HMAC, or accepted unsigned.
	Signer *signing.VerifiedSigner
}

// envelope reads the members of an MCP webhook payload, or of the task,
// event or message an A2A push holds (task, extract's Result.Task), into n;
// the body is valid strict JSON already.
func (n *Notification) envelope(body, task wire.Lenient) error {
	if n.Form == extract.FormMCPWebhook {
		for _, f := range [...]struct {
			key string
			dst *string
		}{
			{"task_id", &n.TaskID}, {"task_type", &n.TaskType}, {"context_id", &n.ContextID},
			{"operation_id", &n.OperationID}, {"idempotency_key", &n.IdempotencyKey},
			{"timestamp", &n.Timestamp}, {"message", &n.Message},
		} {
			if err := optionalString(body, f.key, f.dst); err != nil {
				return err
			}
		}
		return nil
	}
	t := task
	n.TaskID, _ = t.Get("taskId").AsString()
	if id, ok := t.Get("id").AsString(); ok {
		n.TaskID = id
	}
	if id, ok := t.Get("artifacts").Index(0).Get("metadata").Get("adcp_task_id").AsString(); ok && id != "" {
		n.TaskID = id
	}
	n.ContextID, _ = t.Get("contextId").AsString()
	status := t.Get("status")
	n.Timestamp, _ = status.Get("timestamp").AsString()
	status.Get("message").Get("parts").Elems(func(p wire.Lenient) bool {
		if s, ok := p.Get("text").AsString(); ok {
			n.Message = s
			return false
		}
		return true
	})
	return nil
}

// optionalString reads body[key] into dst when present; a present member
// that is not a string is an error.
func optionalString(body wire.Lenient, key string, dst *string) error {
	v := body.Get(key)
	if !v.Present() {
		return nil
	}
	s, ok := v.AsString()
	if !ok {
		return fmt.Errorf("/%s: want a string", key)
	}
	*dst = s
	return nil
}
