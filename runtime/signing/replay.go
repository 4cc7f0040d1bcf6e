package signing

import (
	"context"
	"time"
)

// ReplayStore remembers the (keyid, nonce) pair of every accepted
// signature until it can no longer verify (security.mdx "Transport replay
// dedup"), and caps how many live pairs one keyid may hold: at the cap a
// keyid's new signatures are refused with request_signature_rate_abuse,
// never admitted by evicting older pairs, which would reopen a replay
// window exactly when the verifier is under attack.
//
// The verifier calls Check before the cryptographic verification (step 9a
// reads the cap; step 12's "seen" is reported only once the signature
// verified) and Insert after every check passed (step 13). Insert is the
// authoritative, atomic enforcement: two verifiers sharing a store that
// both saw room at Check cannot both admit the same pair, nor push a keyid
// past its cap. An SQL store does it in one statement: insert the pair
// unless a live one exists, and only while the keyid's live count is below
// limit.
type ReplayStore interface {
	// Check reports whether keyID holds limit or more live pairs, and
	// whether (keyID, nonce) is live.
	Check(ctx context.Context, keyID, nonce string, limit int, now time.Time) (ReplayCheck, error)
	// Insert records (keyID, nonce) as live until expires, unless it is
	// live already (ReplaySeen) or keyID holds limit live pairs
	// (ReplayLimited).
	Insert(ctx context.Context, keyID, nonce string, expires time.Time, limit int, now time.Time) (ReplayResult, error)
}

// ReplayCheck is what ReplayStore.Check found.
type ReplayCheck struct {
	// AtLimit: the keyid holds its cap of live pairs.
	AtLimit bool
	// Seen: the pair is live.
	Seen bool
}

// ReplayResult is what ReplayStore.Insert did.
type ReplayResult uint8

const (
	// ReplayInserted: the pair was recorded.
	ReplayInserted ReplayResult = iota + 1
	// ReplaySeen: the pair was live already; nothing changed.
	ReplaySeen
	// ReplayLimited: the keyid (or the whole store) is at its cap;
	// nothing changed.
	ReplayLimited
)

// replayTTL is how long a pair stays live: (expires − now) + 60 s, the
// skew tolerance of the window check (security.mdx "Transport replay
// dedup"), and never less than the 60 s.
func replayExpiry(expires, now time.Time) time.Time {
	if exp := expires.Add(skew); exp.After(now.Add(skew)) {
		return exp
	}
	return now.Add(skew)
}
