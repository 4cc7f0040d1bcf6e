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

	// ClaimTask takes the work of the principal's open task for lease: one
	// worker at a time, across replicas, does what finishes a task (a
	// buy). A task whose claim is live gives ErrTaskClaimed, a final one
	// ErrTaskFinal; a claim whose lease lapsed (its worker died) is taken
	// over, with a new token.
	ClaimTask(ctx context.Context, principal, id string, lease time.Duration) (TaskClaim, error)
	// RenewTask extends a held claim to now+lease.
	RenewTask(ctx context.Context, principal, id, token string, lease time.Duration) error
	// ReleaseTask gives a held claim up: the task may be claimed at once.
	ReleaseTask(ctx context.Context, principal, id, token string) error
	// ClaimIdle claims up to limit open tasks of any principal that no
	// live claim holds (never claimed, released, or whose worker's lease
	// lapsed), least recently updated first: the work queue of sellertask's
	// Options.Work. Concurrent callers get different tasks.
	ClaimIdle(ctx context.Context, lease time.Duration, limit int) ([]TaskClaim, error)
}

// TaskClaim is a claim on a task's work: Token fences the claim's writes
// (TaskUpdate.Token) and Until is when it lapses unless renewed.
type TaskClaim struct {
	Task  Task
	Token string
	Until time.Time
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
// one. A Token makes the update a claim's: it applies only while that
// token holds the task's work (ErrClaimLost otherwise), so a worker whose
// claim was taken over cannot finish the task.
type TaskUpdate struct {
	Status   task.Status
	Progress []byte
	Result   []byte
	Token    string
}

// Validate reports an unknown status or a token no store can hold.
func (u TaskUpdate) Validate() error {
	if !storekit.StorableStatus(u.Status) {
		return fmt.Errorf("sellerstore: update task: unknown status %q: %w", u.Status, ErrInvalid)
	}
	return storekit.CheckText("claim token", u.Token, false)
}
