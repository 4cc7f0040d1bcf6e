package buyer

import (
	"encoding/json"
	"time"

	"github.com/adcpgen/adcpgen/runtime/task"
)

// Reply is what one call came to before typed decoding: the task's
// status, handles and the seller's payload bytes. Call and Wait turn it into
// a typed task.Result; Invoke returns it as is, for callers without
// generated types (a command-line client printing JSON).
type Reply struct {
	// Tool is the tool called.
	Tool string
	// Status is the task status: the payload's status on MCP (completed
	// when absent), the task state on A2A.
	Status task.Status
	// TaskID is the seller's AdCP task handle: the payload's task_id, or
	// on A2A the artifact metadata's adcp_task_id.
	TaskID string
	// ContextID is the seller's conversation id: the payload's context_id
	// on MCP, the task's contextId on A2A.
	ContextID string
	// Message is the seller's summary (the payload's message; on A2A, else
	// the text of the status message). Untrusted text: sanitise it
	// (runtime/untrusted) before showing it to a person or a model.
	Message string
	// Data is the seller's payload, the bytes it sent, checked strictly
	// (no duplicate keys, no prototype keys at any depth, valid UTF-8):
	// the tool's response for a final status, its interim payload
	// otherwise; nil when the answer carried none (a submitted A2A task
	// without a DataPart, say).
	Data json.RawMessage
	// DataPath says where Data came from ("result.structuredContent",
	// "result.artifacts[0].parts[1].data", "get_task_status result").
	DataPath string
	// Exchange is the answer as the transport delivered it.
	Exchange *Exchange
	// IdempotencyKey is the key the request carried ("" for none); every
	// attempt of the call sent the same one.
	IdempotencyKey string
	// Attempts counts the requests sent for the call (retries included).
	Attempts int
	// PollAfter is the seller's hint of when to ask again about an
	// interim task (0 when it gave none).
	PollAfter time.Duration
	// Release is the AdCP release the seller served the answer in, its
	// payload's adcp_version ("3.1"); "" when it echoed none (a 3.0
	// seller: the answer is then read as the client's pin's).
	Release string

	// failure is how a polled task ended when it ended without a result
	// (a TaskPoller of this package sets it).
	failure error

	// remoteTaskID is the transport's own task id (the A2A task's id), to
	// which an answer to input-required is addressed.
	remoteTaskID string
}
