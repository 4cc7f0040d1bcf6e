package seller

// TaskStatus is an AdCP task status.
type TaskStatus string

const (
	StatusSubmitted     TaskStatus = "submitted"
	StatusWorking       TaskStatus = "working"
	StatusInputRequired TaskStatus = "input-required"
	StatusAuthRequired  TaskStatus = "auth-required"
	StatusCompleted     TaskStatus = "completed"
	StatusFailed        TaskStatus = "failed"
	StatusRejected      TaskStatus = "rejected"
	StatusCanceled      TaskStatus = "canceled"
	StatusUnknown       TaskStatus = "unknown"
)

// Final reports whether the status ends the task.
func (s TaskStatus) Final() bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusRejected || s == StatusCanceled
}

// MCP Task statuses (MCP Tasks use British "cancelled" and underscores).
const (
	MCPTaskWorking       = "working"
	MCPTaskInputRequired = "input_required"
	MCPTaskCompleted     = "completed"
	MCPTaskFailed        = "failed"
	MCPTaskCancelled     = "cancelled"
)

// mcpTaskStatus is the AdCP MCP guide's mapping table.
var mcpTaskStatus = map[TaskStatus]string{
	StatusWorking:       MCPTaskWorking,
	StatusSubmitted:     MCPTaskWorking,       // queued: say so in statusMessage
	StatusInputRequired: MCPTaskInputRequired, // elicitation via tasks/result
	StatusCompleted:     MCPTaskCompleted,
	StatusFailed:        MCPTaskFailed,
	StatusRejected:      MCPTaskFailed, // the reason goes in statusMessage
	StatusCanceled:      MCPTaskCancelled,
	StatusAuthRequired:  MCPTaskInputRequired, // elicitation requests credentials
}

// MCPTaskStatus maps an AdCP status to the MCP Task status a server
// reports. submitted and rejected have no MCP equivalent of their own
// (working and failed; explain in statusMessage), auth-required becomes
// input_required. ok is false for unknown statuses.
func MCPTaskStatus(s TaskStatus) (status string, ok bool) {
	status, ok = mcpTaskStatus[s]
	return status, ok
}

// TaskStatusFromMCP maps an MCP Task status back to AdCP. The mapping
// loses information (working may have been submitted, failed rejected,
// input_required auth-required); it returns the primary reading.
func TaskStatusFromMCP(status string) (TaskStatus, bool) {
	switch status {
	case MCPTaskWorking:
		return StatusWorking, true
	case MCPTaskInputRequired:
		return StatusInputRequired, true
	case MCPTaskCompleted:
		return StatusCompleted, true
	case MCPTaskFailed:
		return StatusFailed, true
	case MCPTaskCancelled:
		return StatusCanceled, true
	}
	return "", false
}
