package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/replay"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Nonces is the replay store of signed requests (replay.Ledger) in
// the seller's database, so that replicas behind one address share it: a
// signed request replayed to another replica is refused with
// request_signature_replayed, and a keyid's cap holds across them
// (security.mdx "Transport replay dedup": the step-13 insert is atomic with
// the cap check). Get it from Store.Nonces; Store.Purge deletes the
// pairs that expired.
//
// Time is the verifier's (the now each call passes), never the
// database's, as for the rest of the store.
type Nonces struct {
	pool *pgxpool.Pool
}

var _ replay.Ledger = (*Nonces)(nil)

// Nonces is the store's replay store for request signatures, on the same
// pool. Migrate creates its table.
func (s *Store) Nonces() *Nonces { return &Nonces{pool: s.pool} }

// nonceLockClass is the first key of the advisory locks that serialize
// inserts per keyid ("nonc"); the second is hashtext(keyid). The two-key
// form never meets Migrate's one-key lock.
const nonceLockClass = 0x6e6f6e63

// checkSQL counts the keyid's live pairs up to the cap (the LIMIT bounds
// the work at any cap) and looks the pair up.
const checkSQL = `SELECT
	(SELECT count(*) FROM (SELECT 1 FROM adcp_signature_nonces
		WHERE keyid = $1 AND expires_at > $3 LIMIT $4) live),
	EXISTS (SELECT 1 FROM adcp_signature_nonces WHERE keyid = $1 AND nonce = $2 AND expires_at > $3)`

// insertSQL records the pair unless it is live, only while the keyid holds
// fewer than the cap of live pairs; a pair that expired is admitted again
// in place. It runs after the keyid's advisory lock is taken, so its
// snapshot sees every insert that finished before: the count is exact.
const insertSQL = `WITH seen AS (
		SELECT EXISTS (SELECT 1 FROM adcp_signature_nonces
			WHERE keyid = $1 AND nonce = $2 AND expires_at > $4) AS live
	), room AS (
		SELECT count(*) < $5 AS ok FROM (SELECT 1 FROM adcp_signature_nonces
			WHERE keyid = $1 AND expires_at > $4 LIMIT $5) live
	), ins AS (
		INSERT INTO adcp_signature_nonces AS r (keyid, nonce, expires_at)
		SELECT $1, $2, $3 FROM seen, room WHERE NOT seen.live AND room.ok
		ON CONFLICT (keyid, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at
		WHERE r.expires_at <= $4
		RETURNING 1
	)
	SELECT (SELECT count(*) FROM ins), (SELECT live FROM seen)`

// Check implements replay.Ledger.
func (n *Nonces) Check(ctx context.Context, keyID, nonce string, limit int, now time.Time) (replay.Found, error) {
	var live int
	var seen bool
	if err := n.pool.QueryRow(ctx, checkSQL, keyID, nonce, now.UTC(), limit).Scan(&live, &seen); err != nil {
		return replay.Found{}, fmt.Errorf("pgstore: nonces: check %q: %w", keyID, err)
	}
	return replay.Found{AtLimit: live >= limit, Seen: seen}, nil
}

// Insert implements replay.Ledger: one transaction takes the keyid's
// advisory lock (pg_advisory_xact_lock, held to the commit) and runs the
// one insert statement, so concurrent inserts for one keyid, from any
// replica, are counted one after the other.
func (n *Nonces) Insert(ctx context.Context, keyID, nonce string, expires time.Time, limit int, now time.Time) (replay.InsertResult, error) {
	var res replay.InsertResult
	err := pgx.BeginFunc(ctx, n.pool, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, int32(nonceLockClass), keyID)
		b.Queue(insertSQL, keyID, nonce, expires.UTC(), now.UTC(), limit)
		br := tx.SendBatch(ctx, b)
		if _, err := br.Exec(); err != nil {
			br.Close()
			return fmt.Errorf("lock: %w", err)
		}
		var inserted int
		var seen bool
		if err := br.QueryRow().Scan(&inserted, &seen); err != nil {
			br.Close()
			return err
		}
		switch {
		case inserted == 1:
			res = replay.Inserted
		case seen:
			res = replay.Seen
		default:
			res = replay.Limited
		}
		return br.Close()
	})
	if err != nil {
		return 0, fmt.Errorf("pgstore: nonces: insert %q: %w", keyID, err)
	}
	return res, nil
}

// purge deletes the pairs that expired before cutoff.
func (n *Nonces) purge(ctx context.Context, cutoff time.Time) (int, error) {
	tag, err := n.pool.Exec(ctx, `DELETE FROM adcp_signature_nonces WHERE expires_at < $1`, cutoff)
	if err != nil {
		return 0, fmt.Errorf("pgstore: purge signature nonces: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
