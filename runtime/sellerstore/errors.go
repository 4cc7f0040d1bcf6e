package sellerstore

import "github.com/adcpgen/adcpgen/runtime/internal/storekit"

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
	// completed, or purged).
	ErrClaimLost = storekit.ErrClaimLost
	// ErrInvalid: an argument the store cannot accept (empty principal,
	// non-positive lease, unknown task status, malformed cursor...).
	ErrInvalid = storekit.ErrInvalid
)
