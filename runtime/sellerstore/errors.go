package sellerstore

import (
	"time"

	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
)

// Sentinel errors. Stores wrap them with %w; test with errors.Is.
var (
	// ErrNotFound: no such task for this principal. A task that exists but
	// belongs to another principal gives the same error and message.
	ErrNotFound = storekit.ErrNotFound
	// ErrExists: CreateTask with an id already taken.
	ErrExists = storekit.ErrExists
	// ErrTaskFinal: UpdateTask on a task whose status is final (completed,
	// failed, canceled, rejected).
	ErrTaskFinal = storekit.ErrTaskFinal
	// ErrClaimLost: Complete, Release or Renew with a token that no longer
	// holds the key (the lease was taken over, the key was released or
	// completed, or purged); RenewTask, ReleaseTask or a fenced UpdateTask
	// with a token that no longer holds the task's work.
	ErrClaimLost = storekit.ErrClaimLost
	// ErrTaskClaimed: ClaimTask on a task whose work another worker's
	// live claim holds.
	ErrTaskClaimed = storekit.ErrTaskClaimed
	// ErrInvalid: an argument the store cannot accept (empty principal,
	// non-positive lease, unknown task status, malformed cursor...).
	ErrInvalid = storekit.ErrInvalid
)

// OutageError is a store that cannot be reached now: a database
// restarting, a connection lost, a pool exhausted. The operation may or
// may not have taken effect (a write whose commit was cut). Callers answer
// a transient error paced by RetryAfter (seller.Handle does, for a
// handler's error wrapping one; so do the idempotency layer and
// sellertask), and stores advise it from their own backoff, so a fleet of
// buyers does not hammer a database that is coming back.
type OutageError struct {
	// Op names the operation ("claim create_media_buy/k-1").
	Op string
	// Wait is the store's backoff when it failed: how long callers should
	// wait before trying again.
	Wait time.Duration
	Err  error
}

func (e *OutageError) Error() string {
	return "sellerstore: " + e.Op + ": store unavailable (retry in " + e.Wait.String() + "): " + e.Err.Error()
}

func (e *OutageError) Unwrap() error { return e.Err }

// RetryAfter is Wait: the delay to advise in an AdCP error's retry_after.
func (e *OutageError) RetryAfter() time.Duration { return e.Wait }
