package a2aserver

import "github.com/a2aproject/a2a-go/a2a"

// ErrorTaskMode says in which A2A task state an AdCP error is answered.
// The artifact is the same in every mode (a TextPart, then the DataPart
// {"adcp_error": ..., "context": ...}), and runtime/extract reads the error
// from a failed and a completed task alike; only the task's state differs.
//
// AdCP's transport error mapping for A2A says "use status: failed with the
// AdCP error in an artifact DataPart", which current buyers read. The
// JavaScript SDK's client (@adcp/sdk 6.11, and the compliance runner built
// on it) unwraps a DataPart only from a completed task: a failed one reaches
// its caller as "Task failed", without the code, the recovery or the
// context. That client is also the one that still names the skill's input
// "parameters" (the legacy key) where current buyers send "input", so the
// dialect of the request tells the two kinds of buyer apart.
type ErrorTaskMode int

const (
	// ErrorTaskFailed answers errors in a failed task, as the protocol
	// says, whatever the buyer sent.
	ErrorTaskFailed ErrorTaskMode = iota
	// ErrorTaskCompleted answers errors in a completed task, for sellers
	// whose buyers all read errors only from completed tasks.
	ErrorTaskCompleted
	// ErrorTaskFollowsDialect answers a failed task to a buyer that sent
	// {"skill", "input"} (the current protocol) and to a request whose
	// dialect is unknown (tasks/get, a message without a skill), and a
	// completed task to a buyer that sent {"skill", "parameters"} (the
	// legacy key of the buyers that read errors only from completed tasks).
	ErrorTaskFollowsDialect
)

// errorState is the task state of an error answer in mode m, for a request
// that named its input with the legacy key "parameters" (legacy) or not.
func (m ErrorTaskMode) errorState(legacy bool) a2a.TaskState {
	if m == ErrorTaskCompleted || (m == ErrorTaskFollowsDialect && legacy) {
		return a2a.TaskStateCompleted
	}
	return a2a.TaskStateFailed
}
