package seller

import "github.com/adcpgen/adcpgen/runtime/task"

// MCP Task statuses (MCP Tasks use British "cancelled" and underscores).
const (
	MCPTaskWorking       = "working"
	MCPTaskInputRequired = "input_required"
	MCPTaskCompleted     = "completed"
	MCPTaskFailed        = "failed"
	MCPTaskCancelled     = "cancelled"
)

// mcpTaskStatus is the AdCP MCP guide's mapping table.
var mcpTaskStatus = map[task.Status]string{
	task.Working:       MCPTaskWorking,
	task.Submitted:     MCPTaskWorking,       // queued: say so in statusMessage
	task.InputRequired: MCPTaskInputRequired, // elicitation via tasks/result
	task.Completed:     MCPTaskCompleted,
	task.Failed:        MCPTaskFailed,
	task.Rejected:      MCPTaskFailed, // the reason goes in statusMessage
	task.Canceled:      MCPTaskCancelled,
	task.AuthRequired:  MCPTaskInputRequired, // elicitation requests credentials
}

// MCPTaskStatus maps an AdCP status to the MCP Task status a server
// reports. submitted and rejected have no MCP equivalent of their own
// (working and failed; explain in statusMessage), auth-required becomes
// input_required. ok is false for unknown statuses.
func MCPTaskStatus(s task.Status) (status string, ok bool) {
	status, ok = mcpTaskStatus[s]
	return status, ok
}

// TaskStatusFromMCP maps an MCP Task status back to AdCP. The mapping
// loses information (working may have been submitted, failed rejected,
// input_required auth-required); it returns the primary reading.
func TaskStatusFromMCP(status string) (task.Status, bool) {
	switch status {
	case MCPTaskWorking:
		return task.Working, true
	case MCPTaskInputRequired:
		return task.InputRequired, true
	case MCPTaskCompleted:
		return task.Completed, true
	case MCPTaskFailed:
		return task.Failed, true
	case MCPTaskCancelled:
		return task.Canceled, true
	}
	return "", false
}
