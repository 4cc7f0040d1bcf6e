// Package storekit is what every seller store shares and only stores call:
// the sentinel errors (runtime/sellerstore re-exports them), the checks on
// what a store accepts, the errors it returns, and its clock's rounding.
// sellerstore's Memory, sellerstore/pgstore (a nested module under
// runtime/, which Go's internal rule lets import it) and storetest use it,
// so every store answers alike; users never see it.
package storekit

import (
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/task"
)

// The sentinel errors of runtime/sellerstore, documented there.
var (
	ErrNotFound    = errors.New("not found")
	ErrExists      = errors.New("already exists")
	ErrTaskFinal   = errors.New("task status is final")
	ErrClaimLost   = errors.New("claim no longer held")
	ErrTaskClaimed = errors.New("task's work claimed by another worker")
	ErrInvalid     = errors.New("invalid argument")
	ErrFull        = errors.New("store full")
)

// CheckText rejects what a SQL text column cannot hold, so every store
// accepts the same strings: invalid UTF-8 and NUL. An empty s is rejected
// when required.
func CheckText(what, s string, required bool) error {
	switch {
	case s == "" && required:
		return fmt.Errorf("sellerstore: empty %s: %w", what, ErrInvalid)
	case !utf8.ValidString(s):
		return fmt.Errorf("sellerstore: %s %q is not valid UTF-8: %w", what, s, ErrInvalid)
	case strings.IndexByte(s, 0) >= 0:
		return fmt.Errorf("sellerstore: %s %q contains NUL: %w", what, s, ErrInvalid)
	}
	return nil
}

// Timestamp is the time a store records for now: UTC, truncated to the
// microsecond so every store (PostgreSQL keeps microseconds) answers with
// the same instants.
func Timestamp(now time.Time) time.Time { return now.UTC().Truncate(time.Microsecond) }

// PurgeCutoff is the instant Purge compares with, rounded as Timestamp.
func PurgeCutoff(cutoff time.Time) time.Time { return Timestamp(cutoff) }

// NewToken returns a random claim token: crypto/rand.Text (26 base32
// characters, 128 bits).
func NewToken() string { return rand.Text() }

// StorableStatus reports whether a store accepts s: every AdCP task status
// but unknown.
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

// CheckLease validates the lease of a claim or Renew.
func CheckLease(lease time.Duration) error {
	if lease <= 0 {
		return fmt.Errorf("sellerstore: lease %v is not positive: %w", lease, ErrInvalid)
	}
	return nil
}

// CheckToken validates the claim token of Complete, Release and Renew.
func CheckToken(token string) error { return CheckText("claim token", token, true) }

// CheckPrincipal rejects an empty or malformed principal: every record is
// scoped by one.
func CheckPrincipal(principal string) error { return CheckText("principal", principal, true) }

// CheckTaskRef validates the (principal, id) of GetTask and UpdateTask.
func CheckTaskRef(principal, id string) error {
	if err := CheckText("task id", id, true); err != nil {
		return err
	}
	return CheckPrincipal(principal)
}

// ClaimLostError is the error a store returns when a token no longer holds
// the key of tool.
func ClaimLostError(op, tool, key string) error {
	return fmt.Errorf("sellerstore: %s %s/%s: %w", op, tool, key, ErrClaimLost)
}

// TaskNotFoundError is the one error for a task that is missing or not the
// principal's.
func TaskNotFoundError(id string) error {
	return fmt.Errorf("sellerstore: task %q: %w", id, ErrNotFound)
}

// TaskFinalError is the error of UpdateTask on a final task.
func TaskFinalError(id string, status task.Status) error {
	return fmt.Errorf("sellerstore: task %q is %s: %w", id, status, ErrTaskFinal)
}

// TaskClaimedError is the error of ClaimTask on a task another worker's
// live claim holds.
func TaskClaimedError(id string) error {
	return fmt.Errorf("sellerstore: task %q: %w", id, ErrTaskClaimed)
}

// TaskClaimLostError is the error of a task claim's token that no longer
// holds the task.
func TaskClaimLostError(op, id string) error {
	return fmt.Errorf("sellerstore: %s task %q: %w", op, id, ErrClaimLost)
}

// TaskExistsError is the error of CreateTask with an id already taken.
func TaskExistsError(id string) error {
	return fmt.Errorf("sellerstore: create task %q: %w", id, ErrExists)
}

// MaxBackoff bounds the wait Backoff advises.
const MaxBackoff = 30 * time.Second

// Backoff paces a store's callers while the store cannot be reached: the
// wait it advises starts at 1 s when the store fails and doubles as the
// outage goes on (the smallest power of two seconds at or above how long
// the store has been away), up to MaxBackoff; the first success resets
// it. Its zero value is ready; it is safe for concurrent use.
type Backoff struct {
	downSince atomic.Int64 // Unix nanoseconds of the first failure; 0 while the store answers
}

// Failed records a failure at now and returns the wait to advise.
func (b *Backoff) Failed(now time.Time) time.Duration {
	b.downSince.CompareAndSwap(0, now.UnixNano())
	away := now.Sub(time.Unix(0, b.downSince.Load()))
	wait := time.Second
	for wait < away && wait < MaxBackoff {
		wait *= 2
	}
	return min(wait, MaxBackoff)
}

// Succeeded records that the store answered.
func (b *Backoff) Succeeded() {
	if b.downSince.Load() != 0 {
		b.downSince.Store(0)
	}
}
