package sellerstore

import (
	"context"
	"fmt"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"time"
)

// IdempotencyStore claims idempotency keys atomically and keeps the response
// of each completed claim for replay.
type IdempotencyStore interface {
	// Claim atomically looks up (principal, tool, key) and, when the key is
	// new or its holder's lease ran out, claims it for the caller.
	Claim(ctx context.Context, req ClaimRequest) (Claim, error)
	// Renew extends a held claim's lease to now+lease, for handlers that run
	// longer than the lease they claimed with.
	Renew(ctx context.Context, key IdempotencyKey, token string, lease time.Duration) error
	// Complete stores the response of a held claim; later claims with the
	// same fingerprint replay it until now+Retention.
	Complete(ctx context.Context, key IdempotencyKey, token string, resp StoredResponse) error
	// Release drops a held claim after a transient failure: the key is
	// unknown again and the buyer may retry it.
	Release(ctx context.Context, key IdempotencyKey, token string) error
}

// IdempotencyKey names one idempotency record. Principal is the
// authenticated buyer; Tool the AdCP tool name; Key the request's
// idempotency_key.
type IdempotencyKey struct {
	Principal string
	Tool      string
	Key       string
}

// Validate reports an empty field or one no store can hold (see Task).
func (k IdempotencyKey) Validate() error {
	for _, f := range [...]struct{ what, s string }{{"principal", k.Principal}, {"tool", k.Tool}, {"idempotency_key", k.Key}} {
		if err := storekit.CheckText(f.what, f.s, true); err != nil {
			return err
		}
	}
	return nil
}

// ClaimRequest is one attempt to claim a key.
type ClaimRequest struct {
	IdempotencyKey
	// Fingerprint identifies the canonical request (see Fingerprint). The
	// same key with another fingerprint is a Conflict.
	Fingerprint string
	// Lease is how long the claim holds the key without Renew before
	// another Claim may take it over.
	Lease time.Duration
	// Retention is the replay window, counted from Complete: the seller's
	// replay_ttl_seconds.
	Retention time.Duration
}

// Validate reports an empty field or a non-positive duration.
func (r ClaimRequest) Validate() error {
	if err := r.IdempotencyKey.Validate(); err != nil {
		return err
	}
	if err := storekit.CheckText("fingerprint", r.Fingerprint, true); err != nil {
		return err
	}
	switch {
	case r.Lease <= 0:
		return storekit.CheckLease(r.Lease)
	case r.Retention <= 0:
		return fmt.Errorf("sellerstore: claim: retention %v is not positive: %w", r.Retention, ErrInvalid)
	}
	return nil
}

// Outcome is what a Claim found.
type Outcome int

// The outcomes of Claim; the zero value is no outcome.
const (
	// Claimed: the caller holds the key (Claim.Token) and runs the handler.
	Claimed Outcome = iota + 1
	// Replay: completed with the same fingerprint; Claim.Response holds it.
	Replay
	// Conflict: the key was used with another fingerprint.
	Conflict
	// InFlight: another live claim holds the key.
	InFlight
	// Expired: completed, but the replay window has passed.
	Expired
)

var outcomeNames = [...]string{"", "claimed", "replay", "conflict", "in-flight", "expired"}

func (o Outcome) String() string {
	if o <= 0 || int(o) >= len(outcomeNames) {
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// StoredResponse is what Complete keeps and Replay returns: the encoded
// response and the task status and task id it carried (both may be empty).
type StoredResponse struct {
	Body   []byte
	Status string
	TaskID string
}

// Claim is the answer to a ClaimRequest. Which fields are set depends on
// Outcome.
type Claim struct {
	Outcome Outcome
	// Token identifies the caller's hold (Claimed) for Complete, Release
	// and Renew. A takeover issues a new token.
	Token string
	// ClaimedAt is when the current holder claimed the key (Claimed,
	// InFlight): the elapsed time behind a retry_after hint.
	ClaimedAt time.Time
	// LeaseUntil is when the current hold lapses (Claimed, InFlight).
	LeaseUntil time.Time
	// Response is the stored response (Replay).
	Response StoredResponse
	// CompletedAt is when the response was stored (Replay, Expired).
	CompletedAt time.Time
	// ExpiresAt is when the replay window ends or ended (Replay, Expired).
	ExpiresAt time.Time
}

// Validate reports a status or task id no store can hold.
func (r StoredResponse) Validate() error {
	if err := storekit.CheckText("response status", r.Status, false); err != nil {
		return err
	}
	return storekit.CheckText("response task id", r.TaskID, false)
}
