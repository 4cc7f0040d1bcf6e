package seller

import "github.com/adcpgen/adcpgen/runtime/sellerstore"

// MCP Task statuses (MCP Tasks use British "cancelled" and underscores).
const (
	MCPTaskWorking       = "working"
	MCPTaskInputRequired = "input_required"
	MCPTaskCompleted     = "completed"
	MCPTaskFailed        = "failed"
	MCPTaskCancelled     = "cancelled"
)

// mcpTaskStatus is the AdCP MCP guide's mapping table.
var mcpTaskStatus = map[sellerstore.TaskStatus]string{
	sellerstore.TaskWorking:       MCPTaskWorking,
	sellerstore.TaskSubmitted:     MCPTaskWorking,       // queued: say so in statusMessage
	sellerstore.TaskInputRequired: MCPTaskInputRequired, // elicitation via tasks/result
	sellerstore.TaskCompleted:     MCPTaskCompleted,
	sellerstore.TaskFailed:        MCPTaskFailed,
	sellerstore.TaskRejected:      MCPTaskFailed, // the reason goes in statusMessage
	sellerstore.TaskCanceled:      MCPTaskCancelled,
	sellerstore.TaskAuthRequired:  MCPTaskInputRequired, // elicitation requests credentials
}

// MCPTaskStatus maps an AdCP status to the MCP Task status a server
// reports. submitted and rejected have no MCP equivalent of their own
// (working and failed; explain in statusMessage), auth-required becomes
// input_required. ok is false for unknown statuses.
func MCPTaskStatus(s sellerstore.TaskStatus) (status string, ok bool) {
	status, ok = mcpTaskStatus[s]
	return status, ok
}

// TaskStatusFromMCP maps an MCP Task status back to AdCP. The mapping
// loses information (working may have been submitted, failed rejected,
// input_required auth-required); it returns the primary reading.
func TaskStatusFromMCP(status string) (sellerstore.TaskStatus, bool) {
	switch status {
	case MCPTaskWorking:
		return sellerstore.TaskWorking, true
	case MCPTaskInputRequired:
		return sellerstore.TaskInputRequired, true
	case MCPTaskCompleted:
		return sellerstore.TaskCompleted, true
	case MCPTaskFailed:
		return sellerstore.TaskFailed, true
	case MCPTaskCancelled:
		return sellerstore.TaskCanceled, true
	}
	return "", false
}
