package pgstore

import (
	"context"
	"time"

	"github.com/adcpgen/adcpgen/runtime/internal/storekit"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is a sellerstore.Store in PostgreSQL. Call Migrate before using it.
type Store struct {
	pool    *pgxpool.Pool
	clock   sellerstore.Clock
	backoff storekit.Backoff // paces callers while the database is away
}

var _ sellerstore.Store = (*Store)(nil)

// New returns a store over pool, reading time from clock (the machine's
// when nil). The pool stays the caller's to close.
func New(pool *pgxpool.Pool, clock sellerstore.Clock) *Store {
	if clock == nil {
		clock = sellerstore.SystemClock{}
	}
	return &Store{pool: pool, clock: clock}
}

func (s *Store) now() time.Time { return storekit.Timestamp(s.clock.Now()) }

// finalStatuses lists the final task statuses, for SQL.
func finalStatuses() []string {
	var out []string
	for _, st := range storekit.StorableStatuses() {
		if st.Final() {
			out = append(out, string(st))
		}
	}
	return out
}

// Purge implements sellerstore.Store; it also deletes the signature
// nonces (Nonces) that expired before cutoff.
func (s *Store) Purge(ctx context.Context, cutoff time.Time) (sellerstore.Purged, error) {
	cutoff = storekit.PurgeCutoff(cutoff)
	var n sellerstore.Purged
	tag, err := s.pool.Exec(ctx, `DELETE FROM adcp_idempotency
		WHERE (completed_at IS NOT NULL AND expires_at < $1) OR (completed_at IS NULL AND lease_until < $1)`, cutoff)
	if err != nil {
		return n, s.fail("purge idempotency records", err)
	}
	n.Idempotency = int(tag.RowsAffected())
	tag, err = s.pool.Exec(ctx, `DELETE FROM adcp_tasks WHERE status = ANY($1) AND updated_at < $2`, finalStatuses(), cutoff)
	if err != nil {
		return n, s.fail("purge tasks", err)
	}
	n.Tasks = int(tag.RowsAffected())
	tag, err = s.pool.Exec(ctx, `DELETE FROM adcp_webhook_outbox WHERE done_at < $1`, cutoff)
	if err != nil {
		return n, s.fail("purge webhooks", err)
	}
	n.Deliveries = int(tag.RowsAffected())
	tag, err = s.pool.Exec(ctx, `DELETE FROM adcp_webhook_dedup WHERE expires_at < $1`, cutoff)
	if err != nil {
		return n, s.fail("purge webhook delivery keys", err)
	}
	n.DeliveryKeys = int(tag.RowsAffected())
	if n.SignatureNonces, err = s.Nonces().purge(ctx, cutoff); err != nil {
		return n, err
	}
	return n, nil
}
