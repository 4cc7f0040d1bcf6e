package sellerstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/adcpgen/adcpgen/runtime/task"
)

// TaskStore keeps async tasks, scoped by principal.
type TaskStore interface {
	// CreateTask stores a new task. The store sets CreatedAt and UpdatedAt
	// from its clock. An id already taken gives ErrExists.
	CreateTask(ctx context.Context, t Task) (Task, error)
	// GetTask returns the principal's task; a missing task and another
	// principal's give the same ErrNotFound error.
	GetTask(ctx context.Context, principal, id string) (Task, error)
	// UpdateTask moves the principal's task to u.Status (ErrTaskFinal when
	// its status is final) and replaces Progress and Result when u sets them.
	UpdateTask(ctx context.Context, principal, id string, u TaskUpdate) (Task, error)
	// ListTasks pages through the principal's tasks, newest first (the
	// default order of AdCP list_tasks: created_at descending), ties broken
	// by id descending.
	ListTasks(ctx context.Context, principal string, q TaskQuery) (TaskPage, error)
}

// StorableStatus reports whether a store accepts s: every AdCP task status
// but task.Unknown, a reader's verdict on a status it cannot determine,
// never one a seller records.
func StorableStatus(s task.Status) bool { return s.Known() && s != task.Unknown }

// StorableStatuses lists every status a store accepts, interim ones first.
func StorableStatuses() []task.Status {
	return slices.DeleteFunc(task.Statuses(), func(s task.Status) bool { return !StorableStatus(s) })
}

// CanTransition reports whether a task in status from may move to status
// to: any known status may follow an interim one (including itself, for a
// progress update); nothing follows a final one.
func CanTransition(from, to task.Status) bool {
	return StorableStatus(from) && StorableStatus(to) && !from.Final()
}

// Task is one async task. Body fields are opaque bytes the framework
// encoded: Request the arguments of the call that started it, as the buyer
// sent them (what any replica needs to take the task over; its context
// object is echoed in every answer), PushConfig the buyer's
// push_notification_config, Progress the latest progress object, Result
// the final response (or error).
type Task struct {
	ID         string
	Principal  string
	Tool       string
	Status     task.Status
	CreatedAt  time.Time
	UpdatedAt  time.Time // for a final task: when it finished (completed_at)
	Request    []byte
	PushConfig []byte
	Progress   []byte
	Result     []byte
}

// ValidateNew reports what CreateTask cannot accept: an empty id,
// principal or tool, a string that is not UTF-8 or holds NUL (no SQL text
// column can), an unknown status.
func (t Task) ValidateNew() error {
	for _, f := range [...]struct{ what, s string }{{"task id", t.ID}, {"principal", t.Principal}, {"tool", t.Tool}} {
		if err := checkText(f.what, f.s, true); err != nil {
			return err
		}
	}
	if !StorableStatus(t.Status) {
		return fmt.Errorf("sellerstore: create task %q: unknown status %q: %w", t.ID, t.Status, ErrInvalid)
	}
	return nil
}

// TaskUpdate is one UpdateTask. A nil Progress or Result keeps the stored
// one.
type TaskUpdate struct {
	Status   task.Status
	Progress []byte
	Result   []byte
}

// Validate reports an unknown status.
func (u TaskUpdate) Validate() error {
	if !StorableStatus(u.Status) {
		return fmt.Errorf("sellerstore: update task: unknown status %q: %w", u.Status, ErrInvalid)
	}
	return nil
}

// TaskNotFoundError is the one error for a task that is missing or not the
// principal's: it names only what the caller sent.
func TaskNotFoundError(id string) error {
	return fmt.Errorf("sellerstore: task %q: %w", id, ErrNotFound)
}

// TaskFinalError is the error of UpdateTask on a final task.
func TaskFinalError(id string, status task.Status) error {
	return fmt.Errorf("sellerstore: task %q is %s: %w", id, status, ErrTaskFinal)
}

// CheckPrincipal rejects an empty or malformed principal: every record is
// scoped by one.
func CheckPrincipal(principal string) error {
	return checkText("principal", principal, true)
}

// CheckTaskRef validates the (principal, id) of GetTask and UpdateTask.
func CheckTaskRef(principal, id string) error {
	if err := checkText("task id", id, true); err != nil {
		return err
	}
	return CheckPrincipal(principal)
}

// TaskExistsError is the error of CreateTask with an id already taken.
func TaskExistsError(id string) error {
	return fmt.Errorf("sellerstore: create task %q: %w", id, ErrExists)
}
