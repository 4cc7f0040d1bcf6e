package sellerstore

import (
	"context"
	"fmt"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
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
		if err := storekit.CheckText(f.what, f.s, true); err != nil {
			return err
		}
	}
	if !storekit.StorableStatus(t.Status) {
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
	if !storekit.StorableStatus(u.Status) {
		return fmt.Errorf("sellerstore: update task: unknown status %q: %w", u.Status, ErrInvalid)
	}
	return nil
}
