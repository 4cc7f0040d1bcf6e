package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/jackc/pgx/v5"
)

// Claims on tasks' work never join a unit of work: they guard the work,
// and a worker's renewal must reach the database while its transaction is
// open.

// ClaimTask implements sellerstore.TaskStore.
func (s *Store) ClaimTask(ctx context.Context, principal, id string, lease time.Duration) (sellerstore.TaskClaim, error) {
	if err := storekit.CheckTaskRef(principal, id); err != nil {
		return sellerstore.TaskClaim{}, err
	}
	if err := storekit.CheckLease(lease); err != nil {
		return sellerstore.TaskClaim{}, err
	}
	now := s.now()
	c := sellerstore.TaskClaim{Token: storekit.NewToken(), Until: now.Add(lease)}
	var err error
	c.Task, err = scanTask(s.pool.QueryRow(ctx, `UPDATE adcp_tasks SET claim_token = $3, claim_until = $4
		WHERE id = $1 AND principal = $2 AND status <> ALL($5) AND (claim_until IS NULL OR claim_until <= $6)
		RETURNING `+taskColumns, id, principal, c.Token, c.Until, finalStatuses(), now))
	if err == nil {
		s.backoff.Succeeded()
		return c, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return sellerstore.TaskClaim{}, s.fail(fmt.Sprintf("claim task %q", id), err)
	}
	// No row: missing, another principal's, final, or claimed.
	var status string
	err = s.pool.QueryRow(ctx, `SELECT status FROM adcp_tasks WHERE id = $1 AND principal = $2`, id, principal).Scan(&status)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		s.backoff.Succeeded()
		return sellerstore.TaskClaim{}, storekit.TaskNotFoundError(id)
	case err != nil:
		return sellerstore.TaskClaim{}, s.fail(fmt.Sprintf("claim task %q", id), err)
	}
	s.backoff.Succeeded()
	if st := task.Status(status); st.Final() {
		return sellerstore.TaskClaim{}, storekit.TaskFinalError(id, st)
	}
	return sellerstore.TaskClaim{}, storekit.TaskClaimedError(id)
}

// heldTaskSQL selects the open task a token's claim holds.
const heldTaskSQL = `id = $1 AND principal = $2 AND claim_token = $3 AND status <> ALL($4)`

// RenewTask implements sellerstore.TaskStore.
func (s *Store) RenewTask(ctx context.Context, principal, id, token string, lease time.Duration) error {
	if err := checkTaskHold(principal, id, token); err != nil {
		return err
	}
	if err := storekit.CheckLease(lease); err != nil {
		return err
	}
	return s.taskHold(ctx, "renew", id, `UPDATE adcp_tasks SET claim_until = $5 WHERE `+heldTaskSQL,
		id, principal, token, finalStatuses(), s.now().Add(lease))
}

// ReleaseTask implements sellerstore.TaskStore.
func (s *Store) ReleaseTask(ctx context.Context, principal, id, token string) error {
	if err := checkTaskHold(principal, id, token); err != nil {
		return err
	}
	return s.taskHold(ctx, "release", id, `UPDATE adcp_tasks SET claim_token = NULL, claim_until = NULL WHERE `+heldTaskSQL,
		id, principal, token, finalStatuses())
}

func (s *Store) taskHold(ctx context.Context, op, id, sql string, args ...any) error {
	tag, err := s.pool.Exec(ctx, sql, args...)
	if err != nil {
		return s.fail(fmt.Sprintf("%s task claim %q", op, id), err)
	}
	s.backoff.Succeeded()
	if tag.RowsAffected() == 0 {
		return storekit.TaskClaimLostError(op, id)
	}
	return nil
}

// ClaimIdle implements sellerstore.TaskStore: one statement, its rows
// locked with SKIP LOCKED, so replicas sweeping at once take different
// tasks.
func (s *Store) ClaimIdle(ctx context.Context, lease time.Duration, limit int) ([]sellerstore.TaskClaim, error) {
	if err := storekit.CheckLease(lease); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	now := s.now()
	until := now.Add(lease)
	rows, err := s.pool.Query(ctx, `UPDATE adcp_tasks t SET claim_token = gen_random_uuid()::text, claim_until = $2
		FROM (SELECT id FROM adcp_tasks
			WHERE status <> ALL($3) AND (claim_until IS NULL OR claim_until <= $1)
			ORDER BY updated_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) idle
		WHERE t.id = idle.id
		RETURNING t.id, t.principal, t.tool, t.status, t.created_at, t.updated_at, t.push_config, t.progress, t.result, t.request, t.claim_token`,
		now, until, finalStatuses(), limit)
	if err != nil {
		return nil, s.fail("claim idle tasks", err)
	}
	claims, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (sellerstore.TaskClaim, error) {
		var c sellerstore.TaskClaim
		var status string
		t := &c.Task
		err := r.Scan(&t.ID, &t.Principal, &t.Tool, &status, &t.CreatedAt, &t.UpdatedAt, &t.PushConfig, &t.Progress, &t.Result, &t.Request, &c.Token)
		t.Status = task.Status(status)
		t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
		c.Until = until
		return c, err
	})
	if err != nil {
		return nil, s.fail("claim idle tasks", err)
	}
	s.backoff.Succeeded()
	return claims, nil
}

func checkTaskHold(principal, id, token string) error {
	if err := storekit.CheckTaskRef(principal, id); err != nil {
		return err
	}
	return storekit.CheckToken(token)
}
