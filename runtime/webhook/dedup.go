package webhook

import (
	"context"
	"time"
)

// DedupStore keeps the delivery keys a Receiver has published: each
// (sender, idempotency_key) bound to its payload's fingerprint for the
// dedup retention, and who is publishing it now. webhooks.mdx requires
// that state to be durable for at least 24 hours and shared by every
// endpoint a sender can reach ("an in-memory-only cache ... is
// non-conformant"): give every receiver of a buyer one store,
// sellerstore/pgstore's Dedup for PostgreSQL. Without one a Receiver keeps
// the keys in memory, for tests and a single process.
type DedupStore interface {
	// Claim binds key to fingerprint until expires (a binding that expired
	// is made anew) and makes the caller its publisher for lease, unless
	// the key was published already (DedupDuplicate), is being published
	// by a live claim (DedupBusy; a claim whose lease lapsed, its
	// receiver died, is taken over) or is bound to another payload
	// (DedupConflict).
	Claim(ctx context.Context, key, fingerprint string, lease time.Duration, expires time.Time) (DedupClaim, error)
	// Ack records the publication done: later claims of the key answer
	// DedupDuplicate.
	Ack(ctx context.Context, key, token string) error
	// Drop gives the key up after a failed publication, so that the
	// sender's retry publishes it.
	Drop(ctx context.Context, key, token string) error
}

// DedupState is what a Claim found.
type DedupState int

// The states of a DedupClaim.
const (
	// DedupPublish: the caller publishes (DedupClaim.Token).
	DedupPublish DedupState = iota + 1
	// DedupDuplicate: published already; answer 2xx without publishing.
	DedupDuplicate
	// DedupBusy: another publisher holds the key; answer a retryable 503.
	DedupBusy
	// DedupConflict: the key is bound to another payload; answer 409.
	DedupConflict
)

// DedupClaim is the answer to a Claim.
type DedupClaim struct {
	State DedupState
	Token string
}

// dedupLease is how long a publication holds its key: a receiver that dies
// while its handler runs leaves the key to the sender's next retry after
// this.
const dedupLease = time.Minute

// memoryDedup is the in-memory DedupStore of one Receiver: the keys of
// one process, within MaxSeen.
type memoryDedup struct{ keys *seenSet }

func (m memoryDedup) Claim(_ context.Context, key, fingerprint string, _ time.Duration, expires time.Time) (DedupClaim, error) {
	switch m.keys.add(key, fingerprint, expires.Add(-m.keys.ttl)) {
	case seenDone:
		return DedupClaim{State: DedupDuplicate}, nil
	case seenPending:
		return DedupClaim{State: DedupBusy}, nil
	case seenConflict:
		return DedupClaim{State: DedupConflict}, nil
	}
	return DedupClaim{State: DedupPublish, Token: key}, nil
}

func (m memoryDedup) Ack(_ context.Context, key, _ string) error {
	m.keys.finish(key)
	return nil
}

func (m memoryDedup) Drop(_ context.Context, key, _ string) error {
	m.keys.forget(key)
	return nil
}
