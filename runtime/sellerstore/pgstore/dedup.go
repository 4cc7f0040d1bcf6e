package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/jackc/pgx/v5"
)

// Dedup is the buyer's side: the delivery keys its webhook receivers have
// published (webhook.DedupStore), in PostgreSQL, so that every receiver of
// a buyer, on every replica and across restarts, answers a redelivered
// event as a duplicate for the whole dedup retention (webhooks.mdx: at
// least 24 hours, durable and shared by every endpoint). Give it to
// webhook.ReceiverOptions.Dedup; Store.Purge deletes the keys whose
// retention ended. Time is the store's Clock, as for the rest of it.
type Dedup struct {
	s *Store
}

var _ webhook.DedupStore = (*Dedup)(nil)

// Dedup is the store's webhook dedup store, on the same pool. Migrate
// creates its table.
func (s *Store) Dedup() *Dedup { return &Dedup{s: s} }

// Claim implements webhook.DedupStore: one INSERT ... ON CONFLICT DO
// UPDATE, which takes over only an expired binding or a lapsed claim on the
// same payload, so of receivers racing one key exactly one publishes.
func (d *Dedup) Claim(ctx context.Context, key, fingerprint string, lease time.Duration, expires time.Time) (webhook.DedupClaim, error) {
	if err := storekit.CheckText("delivery key", key, true); err != nil {
		return webhook.DedupClaim{}, err
	}
	if err := storekit.CheckLease(lease); err != nil {
		return webhook.DedupClaim{}, err
	}
	now := d.s.now()
	token := storekit.NewToken()
	var got string
	err := d.s.pool.QueryRow(ctx, `INSERT INTO adcp_webhook_dedup AS r (key, fingerprint, expires_at, token, lease_until)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, expires_at = EXCLUDED.expires_at,
			done = false, token = EXCLUDED.token, lease_until = EXCLUDED.lease_until
		WHERE r.expires_at <= $6 OR (NOT r.done AND r.fingerprint = EXCLUDED.fingerprint AND r.lease_until <= $6)
		RETURNING token`, key, fingerprint, storekit.Timestamp(expires), token, now.Add(lease), now).Scan(&got)
	if err == nil {
		d.s.backoff.Succeeded()
		return webhook.DedupClaim{State: webhook.DedupPublish, Token: got}, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return webhook.DedupClaim{}, d.s.fail("claim a webhook delivery key", err)
	}
	var fp string
	var done bool
	err = d.s.pool.QueryRow(ctx, `SELECT fingerprint, done FROM adcp_webhook_dedup WHERE key = $1`, key).Scan(&fp, &done)
	switch {
	case errors.Is(err, pgx.ErrNoRows): // dropped meanwhile: the sender retries
		return webhook.DedupClaim{State: webhook.DedupBusy}, nil
	case err != nil:
		return webhook.DedupClaim{}, d.s.fail("read a webhook delivery key", err)
	case fp != fingerprint:
		return webhook.DedupClaim{State: webhook.DedupConflict}, nil
	case done:
		return webhook.DedupClaim{State: webhook.DedupDuplicate}, nil
	}
	return webhook.DedupClaim{State: webhook.DedupBusy}, nil
}

// Ack implements webhook.DedupStore.
func (d *Dedup) Ack(ctx context.Context, key, token string) error {
	return d.held(ctx, "ack", key, `UPDATE adcp_webhook_dedup SET done = true, token = NULL, lease_until = NULL WHERE key = $1 AND token = $2 AND NOT done`, token)
}

// Drop implements webhook.DedupStore.
func (d *Dedup) Drop(ctx context.Context, key, token string) error {
	return d.held(ctx, "drop", key, `DELETE FROM adcp_webhook_dedup WHERE key = $1 AND token = $2 AND NOT done`, token)
}

func (d *Dedup) held(ctx context.Context, op, key, sql, token string) error {
	tag, err := d.s.pool.Exec(ctx, sql, key, token)
	if err != nil {
		return d.s.fail(op+" a webhook delivery key", err)
	}
	d.s.backoff.Succeeded()
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("pgstore: %s a webhook delivery key: %w", op, sellerstore.ErrClaimLost)
	}
	return nil
}
