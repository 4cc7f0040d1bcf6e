package sellerstore

import (
	"context"
	"time"
)

// Store is everything a seller keeps between requests and shares between
// replicas.
type Store interface {
	IdempotencyStore
	TaskStore
	Outbox
	// Purge deletes what no request can use any more: idempotency records
	// whose replay window ended before cutoff (they stop answering
	// Expired), claims whose lease lapsed before cutoff without completing,
	// final tasks last updated before cutoff, and deliveries settled
	// (delivered or given up) before cutoff. Durable stores never delete on
	// their own; run Purge periodically, with a cutoff well past the replay
	// window, and keep tasks at least as long as the responses that name
	// them.
	Purge(ctx context.Context, cutoff time.Time) (Purged, error)
}

// Purged counts what Purge deleted.
type Purged struct {
	Idempotency int
	Tasks       int
	Deliveries  int
	// DeliveryKeys counts the webhook delivery keys a buyer's receivers
	// published whose retention ended (pgstore's Dedup).
	DeliveryKeys int
	// SignatureNonces counts the expired (keyid, nonce) pairs of signed
	// requests a store keeps beside its records (pgstore's Nonces).
	SignatureNonces int
}
