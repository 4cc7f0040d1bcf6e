package replay

import (
	"context"
	"time"
)

// Ledger remembers the (keyid, nonce) pair of every accepted
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
type Ledger interface {
	// Check reports whether keyID holds limit or more live pairs, and
	// whether (keyID, nonce) is live.
	Check(ctx context.Context, keyID, nonce string, limit int, now time.Time) (Found, error)
	// Insert records (keyID, nonce) as live until expires, unless it is
	// live already (Seen) or keyID holds limit live pairs (Limited).
	Insert(ctx context.Context, keyID, nonce string, expires time.Time, limit int, now time.Time) (InsertResult, error)
}

// Found is what Ledger.Check found.
type Found struct {
	// AtLimit: the keyid holds its cap of live pairs.
	AtLimit bool
	// Seen: the pair is live.
	Seen bool
}

// InsertResult is what Ledger.Insert did.
type InsertResult uint8

const (
	// Inserted: the pair was recorded.
	Inserted InsertResult = iota + 1
	// Seen: the pair was live already; nothing changed.
	Seen
	// Limited: the keyid (or the whole ledger) is at its cap; nothing
	// changed.
	Limited
)
