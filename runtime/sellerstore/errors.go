package sellerstore

import "errors"

// Sentinel errors. Stores wrap them with %w; test with errors.Is.
var (
	// ErrNotFound: no such task for this principal. A task that exists but
	// belongs to another principal gives the same error and message.
	ErrNotFound = errors.New("not found")
	// ErrExists: CreateTask with an id already taken.
	ErrExists = errors.New("already exists")
	// ErrTaskFinal: UpdateTask on a task whose status is final (completed,
	// failed, canceled, rejected).
	ErrTaskFinal = errors.New("task status is final")
	// ErrClaimLost: Complete, Release or Renew with a token that no longer
	// holds the key (the lease was taken over, the key was released or
	// completed, or purged).
	ErrClaimLost = errors.New("idempotency claim no longer held")
	// ErrInvalid: an argument the store cannot accept (empty principal,
	// non-positive lease, unknown task status, malformed cursor...).
	ErrInvalid = errors.New("invalid argument")
)
