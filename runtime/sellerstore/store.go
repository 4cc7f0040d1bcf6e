package sellerstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Store is everything a seller keeps between requests and shares between
// replicas.
type Store interface {
	IdempotencyStore
	TaskStore
	// Purge deletes what no request can use any more: idempotency records
	// whose replay window ended before cutoff (they stop answering
	// Expired), claims whose lease lapsed before cutoff without completing,
	// and final tasks last updated before cutoff. Stores never delete on
	// their own; run Purge periodically, with a cutoff well past the replay
	// window, and keep tasks at least as long as the responses that name
	// them.
	Purge(ctx context.Context, cutoff time.Time) (Purged, error)
}

// Purged counts what Purge deleted.
type Purged struct {
	Idempotency int
	Tasks       int
}

// NewToken returns 128 random bits in hex: claim tokens, and task ids for
// a framework that has no scheme of its own.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// PurgeCutoff is the instant Purge compares with: cutoff in UTC, truncated
// to the microsecond like every time a store records.
func PurgeCutoff(cutoff time.Time) time.Time {
	return cutoff.UTC().Truncate(time.Microsecond)
}
