package task

// Status is an AdCP task status (the spec's task-status enum). Buyers see
// it in a response's status field, an A2A task state or a webhook; sellers
// answer with it.
type Status string

// The task statuses of AdCP. Submitted, Working and InputRequired are
// interim: the task goes on and its result comes later (by polling the
// status tool, or by webhook). The others are final.
const (
	Submitted     Status = "submitted"
	Working       Status = "working"
	InputRequired Status = "input-required"
	AuthRequired  Status = "auth-required"
	Completed     Status = "completed"
	Failed        Status = "failed"
	Canceled      Status = "canceled"
	Rejected      Status = "rejected"
	// Unknown is the status of a task the seller cannot say anything about.
	Unknown Status = "unknown"
)

// Statuses lists every status, interim ones first.
func Statuses() []Status {
	return []Status{Submitted, Working, InputRequired, AuthRequired, Completed, Failed, Canceled, Rejected, Unknown}
}

// Known reports whether s is one of the statuses of AdCP.
func (s Status) Known() bool {
	switch s {
	case Submitted, Working, InputRequired, AuthRequired, Completed, Failed, Canceled, Rejected, Unknown:
		return true
	}
	return false
}

// Interim reports a status after which the task goes on: its result comes
// later, by polling the status tool or by webhook.
func (s Status) Interim() bool {
	return s == Submitted || s == Working || s == InputRequired || s == AuthRequired
}

// Final reports a status no task leaves.
func (s Status) Final() bool {
	return s == Completed || s == Failed || s == Canceled || s == Rejected
}
