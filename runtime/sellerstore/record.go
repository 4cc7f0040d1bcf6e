package sellerstore

import (
	"bytes"
	"time"
)

// Record is an idempotency record as a store keeps it. Its methods are the
// rules of Claim, shared by every store so they answer alike.
type Record struct {
	Fingerprint string
	Token       string
	ClaimedAt   time.Time
	LeaseUntil  time.Time
	Retention   time.Duration
	Completed   bool
	Response    StoredResponse
	CompletedAt time.Time
	ExpiresAt   time.Time
}

// TakeableBy reports whether a Claim with fingerprint at now takes the
// record over: it never completed, the fingerprint matches and its lease
// has lapsed (a lease ends at LeaseUntil, exclusive).
func (r Record) TakeableBy(fingerprint string, now time.Time) bool {
	return !r.Completed && r.Fingerprint == fingerprint && !now.Before(r.LeaseUntil)
}

// Answer is the Claim for fingerprint at now when the record is not taken
// over. An expired record answers Expired whatever the fingerprint; then a
// different fingerprint is a Conflict; then a completed record replays and
// a live claim is in flight.
func (r Record) Answer(fingerprint string, now time.Time) Claim {
	switch {
	case r.Completed && !now.Before(r.ExpiresAt):
		return Claim{Outcome: Expired, CompletedAt: r.CompletedAt, ExpiresAt: r.ExpiresAt}
	case r.Fingerprint != fingerprint:
		return Claim{Outcome: Conflict}
	case r.Completed:
		resp := StoredResponse{Body: bytes.Clone(r.Response.Body), Status: r.Response.Status, TaskID: r.Response.TaskID}
		return Claim{Outcome: Replay, Response: resp, CompletedAt: r.CompletedAt, ExpiresAt: r.ExpiresAt}
	}
	return Claim{Outcome: InFlight, ClaimedAt: r.ClaimedAt, LeaseUntil: r.LeaseUntil}
}

// PurgeableAt reports whether Purge with cutoff deletes the record: its
// replay window, or the lease of a claim that never completed, ended
// before cutoff.
func (r Record) PurgeableAt(cutoff time.Time) bool {
	if r.Completed {
		return r.ExpiresAt.Before(cutoff)
	}
	return r.LeaseUntil.Before(cutoff)
}
