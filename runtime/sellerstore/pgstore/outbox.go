package pgstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/jackc/pgx/v5"
)

// Enqueue implements sellerstore.Outbox; with a context carrying a unit of
// work of the store it joins the unit's transaction (the task's update
// and its webhook commit together).
func (s *Store) Enqueue(ctx context.Context, d sellerstore.Delivery) (sellerstore.Delivery, error) {
	if err := d.ValidateNew(); err != nil {
		return sellerstore.Delivery{}, err
	}
	now := s.now()
	d.CreatedAt, d.Attempts, d.Token = now, 0, ""
	d.Deadline = storekit.Timestamp(d.Deadline)
	err := s.run(ctx, func(q querier) error {
		return q.QueryRow(ctx, `INSERT INTO adcp_webhook_outbox (task_id, principal, tool, status, push_config, body, created_at, deadline, next_at, trace)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7, $9) RETURNING id`,
			d.TaskID, d.Principal, d.Tool, d.Status, d.PushConfig, d.Body, now, d.Deadline, d.Trace).Scan(&d.ID)
	})
	if err != nil {
		return sellerstore.Delivery{}, s.fail(fmt.Sprintf("enqueue a webhook of task %q", d.TaskID), err)
	}
	s.backoff.Succeeded()
	return d, nil
}

// ClaimDue implements sellerstore.Outbox: one statement, SKIP LOCKED, so
// replicas claiming at once take different deliveries; a delivery whose
// task has an earlier one unsettled waits for it.
func (s *Store) ClaimDue(ctx context.Context, lease time.Duration, limit int) ([]sellerstore.Delivery, error) {
	if err := storekit.CheckLease(lease); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	now := s.now()
	rows, err := s.pool.Query(ctx, `UPDATE adcp_webhook_outbox o SET claim_token = gen_random_uuid()::text, claim_until = $2
		FROM (SELECT p.id FROM adcp_webhook_outbox p
			WHERE p.done_at IS NULL AND p.next_at <= $1 AND (p.claim_until IS NULL OR p.claim_until <= $1)
			  AND NOT EXISTS (SELECT 1 FROM adcp_webhook_outbox e WHERE e.task_id = p.task_id AND e.id < p.id AND e.done_at IS NULL)
			ORDER BY p.next_at, p.id LIMIT $3 FOR UPDATE SKIP LOCKED) due
		WHERE o.id = due.id
		RETURNING o.id, o.task_id, o.principal, o.tool, o.status, o.push_config, o.body, o.created_at, o.deadline, o.attempts, o.claim_token, o.trace`,
		now, now.Add(lease), limit)
	if err != nil {
		return nil, s.fail("claim due webhooks", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (sellerstore.Delivery, error) {
		var d sellerstore.Delivery
		err := r.Scan(&d.ID, &d.TaskID, &d.Principal, &d.Tool, &d.Status, &d.PushConfig, &d.Body, &d.CreatedAt, &d.Deadline, &d.Attempts, &d.Token, &d.Trace)
		d.CreatedAt, d.Deadline = d.CreatedAt.UTC(), d.Deadline.UTC()
		return d, err
	})
	if err != nil {
		return nil, s.fail("claim due webhooks", err)
	}
	s.backoff.Succeeded()
	// The statement's order is not RETURNING's: oldest first again.
	sortDeliveries(out)
	return out, nil
}

// Settle implements sellerstore.Outbox.
func (s *Store) Settle(ctx context.Context, id int64, token string, a sellerstore.Attempt) error {
	if err := storekit.CheckToken(token); err != nil {
		return err
	}
	if err := storekit.CheckText("delivery error", a.Error, false); err != nil {
		return err
	}
	now := s.now()
	var doneAt, nextAt any // NULL: keep
	if a.Delivered || a.GiveUp {
		doneAt = now
	} else {
		nextAt = storekit.Timestamp(a.RetryAt)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE adcp_webhook_outbox
		SET attempts = attempts + 1, done_at = $3, delivered = $4, next_at = coalesce($5, next_at),
		    last_status = nullif($6, 0), last_error = nullif($7, ''), claim_token = NULL, claim_until = NULL
		WHERE id = $1 AND claim_token = $2 AND done_at IS NULL`, id, token, doneAt, a.Delivered, nextAt, a.Status, a.Error)
	if err != nil {
		return s.fail(fmt.Sprintf("settle webhook %d", id), err)
	}
	s.backoff.Succeeded()
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("pgstore: settle webhook %d: %w", id, sellerstore.ErrClaimLost)
	}
	return nil
}

// sortDeliveries orders deliveries by id, their enqueue order.
func sortDeliveries(ds []sellerstore.Delivery) {
	slices.SortFunc(ds, func(a, b sellerstore.Delivery) int { return cmp.Compare(a.ID, b.ID) })
}
