package pgstore

import (
	"context"
	"errors"
	"fmt"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/jackc/pgx/v5"
)

// claimAttempts bounds Claim's retries when the record changes between its
// two statements (released, or its lease lapsing); each retry means another
// caller made progress.
const claimAttempts = 8

// claimSQL inserts a new claim or takes over an unfinished one with the
// same fingerprint whose lease lapsed; it returns no row when the key is
// held otherwise.
const claimSQL = `INSERT INTO adcp_idempotency AS r
	(principal, tool, key, fingerprint, token, claimed_at, lease_until, retention_us)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
	ON CONFLICT (principal, tool, key) DO UPDATE
	SET token = EXCLUDED.token, claimed_at = EXCLUDED.claimed_at,
	    lease_until = EXCLUDED.lease_until, retention_us = EXCLUDED.retention_us
	WHERE r.completed_at IS NULL AND r.fingerprint = EXCLUDED.fingerprint
	  AND r.lease_until <= EXCLUDED.claimed_at
	RETURNING token`

const recordSQL = `SELECT fingerprint, claimed_at, lease_until, completed_at IS NOT NULL,
	coalesce(completed_at, 'epoch'), coalesce(expires_at, 'epoch'), body, coalesce(status, ''), coalesce(task_id, '')
	FROM adcp_idempotency WHERE principal = $1 AND tool = $2 AND key = $3`

// Claim implements sellerstore.IdempotencyStore.
func (s *Store) Claim(ctx context.Context, req sellerstore.ClaimRequest) (sellerstore.Claim, error) {
	if err := req.Validate(); err != nil {
		return sellerstore.Claim{}, err
	}
	k := req.IdempotencyKey
	for range claimAttempts {
		now := s.now()
		token := storekit.NewToken()
		leaseUntil := now.Add(req.Lease)
		var got string
		err := s.pool.QueryRow(ctx, claimSQL, k.Principal, k.Tool, k.Key, req.Fingerprint, token,
			now, leaseUntil, req.Retention.Microseconds()).Scan(&got)
		switch {
		case err == nil:
			s.backoff.Succeeded()
			return sellerstore.Claim{Outcome: sellerstore.Claimed, Token: got, ClaimedAt: now, LeaseUntil: leaseUntil}, nil
		case !errors.Is(err, pgx.ErrNoRows):
			return sellerstore.Claim{}, s.fail("claim "+k.Tool+"/"+k.Key, err)
		}
		rec, found, err := s.record(ctx, k)
		if err != nil {
			return sellerstore.Claim{}, err
		}
		if found && !rec.TakeableBy(req.Fingerprint, now) {
			return rec.Answer(req.Fingerprint, now), nil
		}
		// Released, purged or lapsed since the INSERT looked: try again.
	}
	return sellerstore.Claim{}, fmt.Errorf("pgstore: claim %s/%s: the record kept changing over %d attempts", k.Tool, k.Key, claimAttempts)
}

// record reads the record of k.
func (s *Store) record(ctx context.Context, k sellerstore.IdempotencyKey) (sellerstore.Record, bool, error) {
	var r sellerstore.Record
	err := s.pool.QueryRow(ctx, recordSQL, k.Principal, k.Tool, k.Key).Scan(&r.Fingerprint, &r.ClaimedAt, &r.LeaseUntil,
		&r.Completed, &r.CompletedAt, &r.ExpiresAt, &r.Response.Body, &r.Response.Status, &r.Response.TaskID)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return r, false, nil
	case err != nil:
		return r, false, s.fail("read idempotency record "+k.Tool+"/"+k.Key, err)
	}
	s.backoff.Succeeded()
	for _, t := range []*time.Time{&r.ClaimedAt, &r.LeaseUntil, &r.CompletedAt, &r.ExpiresAt} {
		*t = t.UTC()
	}
	return r, true, nil
}

// hold runs one statement on the record token holds, on q; no row means
// the hold is lost (the token is the claim's fence: a claim taken over
// has another).
func (s *Store) hold(ctx context.Context, q querier, op string, k sellerstore.IdempotencyKey, token, sql string, args ...any) error {
	if err := checkHold(k, token); err != nil {
		return err
	}
	tag, err := q.Exec(ctx, sql, append([]any{k.Principal, k.Tool, k.Key, token}, args...)...)
	if err != nil {
		return s.fail(op+" "+k.Tool+"/"+k.Key, err)
	}
	s.backoff.Succeeded()
	if tag.RowsAffected() == 0 {
		return storekit.ClaimLostError(op, k.Tool, k.Key)
	}
	return nil
}

const heldSQL = `principal = $1 AND tool = $2 AND key = $3 AND token = $4 AND completed_at IS NULL`

const completeSQL = `UPDATE adcp_idempotency
	SET completed_at = $5, expires_at = $5::timestamptz + retention_us * interval '1 microsecond',
	    body = $6, status = $7, task_id = $8
	WHERE ` + heldSQL

// Renew implements sellerstore.IdempotencyStore.
func (s *Store) Renew(ctx context.Context, k sellerstore.IdempotencyKey, token string, lease time.Duration) error {
	if err := storekit.CheckLease(lease); err != nil {
		return err
	}
	return s.hold(ctx, s.pool, "renew", k, token, `UPDATE adcp_idempotency SET lease_until = $5 WHERE `+heldSQL, s.now().Add(lease))
}

// Complete implements sellerstore.IdempotencyStore. With a context
// carrying a unit of work of the store it joins the unit's transaction:
// the record completes when the unit commits, with the writes made in it.
func (s *Store) Complete(ctx context.Context, k sellerstore.IdempotencyKey, token string, resp sellerstore.StoredResponse) error {
	if err := resp.Validate(); err != nil {
		return err
	}
	if u := s.unitOf(ctx); u != nil && u.alone() {
		// The unit's only write: one statement commits by itself, without a
		// transaction's two round trips more.
		return s.hold(ctx, s.pool, "complete", k, token, completeSQL, s.now(), resp.Body, resp.Status, resp.TaskID)
	}
	var held error
	err := s.run(ctx, func(q querier) error {
		held = s.hold(ctx, q, "complete", k, token, completeSQL, s.now(), resp.Body, resp.Status, resp.TaskID)
		return held
	})
	if err != nil && held == nil { // the unit's transaction did not begin
		return s.fail("complete "+k.Tool+"/"+k.Key, err)
	}
	return err
}

// Release implements sellerstore.IdempotencyStore.
func (s *Store) Release(ctx context.Context, k sellerstore.IdempotencyKey, token string) error {
	return s.hold(ctx, s.pool, "release", k, token, `DELETE FROM adcp_idempotency WHERE `+heldSQL)
}

// checkHold validates the arguments of Complete, Release and Renew.
func checkHold(key sellerstore.IdempotencyKey, token string) error {
	if err := key.Validate(); err != nil {
		return err
	}
	return storekit.CheckToken(token)
}
