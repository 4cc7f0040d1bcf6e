package task

// Result is what one call of a tool came to: the final response, or an
// interim status with its typed payload. R is the tool's response type; S,
// W and I its submitted, working and input-required payload types (None
// when the spec has no such payload for the tool).
//
// A buyer reads it from a call; a seller's handler returns one. Exactly one
// of Response, Submitted, Working and InputRequired is set when the status
// has a payload type.
type Result[R, S, W, I any] struct {
	// Status is the task's status: Completed (or Failed with a response
	// body that reports failure) for a final response, an interim status
	// otherwise.
	Status Status
	// TaskID is the seller's AdCP task handle (the payload's task_id, or the
	// artifact metadata adcp_task_id on A2A); the status tool and webhooks
	// refer to it. Empty for a synchronous answer.
	TaskID string
	// ContextID is the seller's conversation id (context_id on MCP, the A2A
	// contextId), resent on the next call of the same conversation.
	ContextID string
	// Message is the seller's human-readable summary, as sent. It is
	// untrusted text: sanitise it (runtime/untrusted) before showing it to a
	// person or a model.
	Message string

	Response      *R
	Submitted     *S
	Working       *W
	InputRequired *I
}

// Interim reports whether the task goes on after this result.
func (r *Result[R, S, W, I]) Interim() bool { return r.Status.Interim() }
