package a2aserver

// TaskStateMode says in which A2A task states AdCP answers are sent. The
// AdCP payload is the same in every mode (with its status, and task_id,
// beside its members in the artifact's DataPart; an error as a DataPart
// {"adcp_error": ..., "context": ...}); only the task's state, and where
// an interim payload also goes, differ.
//
// AdCP's A2A rules give each answer the task state of its status: a
// response in a completed task, an interim answer (submitted, working,
// input-required) in a task of that state with its payload in
// status.message, an error in a failed task ("use status: failed with the
// AdCP error in an artifact DataPart"). Current buyers, runtime/extract
// among them, read that. The JavaScript SDK's client (@adcp/sdk 6.11, and
// the compliance runner built on it) reads a DataPart only from a
// completed task: a failed one reaches its caller as "Task failed",
// without the code, the recovery or the context, and a submitted one
// without its task_id; the SDK's own seller answers a submitted arm in a
// completed task (the transport call is over, the AdCP work is not). That
// client is also the one that still names the skill's input "parameters"
// (the legacy key) where current buyers send "input", so the dialect of
// the request tells the two kinds of buyer apart.
type TaskStateMode int

const (
	// TaskStatesProtocol answers as AdCP's A2A rules say, whatever the
	// buyer sent.
	TaskStatesProtocol TaskStateMode = iota
	// TaskStatesCompleted answers everything in a completed task, the AdCP
	// status in the DataPart, for sellers whose buyers all read only
	// completed tasks.
	TaskStatesCompleted
	// TaskStatesFollowDialect answers as the protocol says to a buyer that
	// sent {"skill", "input"} and to a request whose dialect is unknown
	// (tasks/get, a message without a skill), and in a completed task to a
	// buyer that sent {"skill", "parameters"}.
	TaskStatesFollowDialect
)

// allCompleted reports whether mode m answers in completed tasks only, for
// a request that named its input with the legacy key "parameters"
// (legacy) or not.
func (m TaskStateMode) allCompleted(legacy bool) bool {
	return m == TaskStatesCompleted || (m == TaskStatesFollowDialect && legacy)
}
