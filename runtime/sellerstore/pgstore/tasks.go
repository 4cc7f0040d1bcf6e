package pgstore

import (
	"context"
	"errors"
	"fmt"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

const taskColumns = `id, principal, tool, status, created_at, updated_at, push_config, progress, result, request`

func scanTask(row pgx.Row) (sellerstore.Task, error) {
	var t sellerstore.Task
	var status string
	err := row.Scan(&t.ID, &t.Principal, &t.Tool, &status, &t.CreatedAt, &t.UpdatedAt, &t.PushConfig, &t.Progress, &t.Result, &t.Request)
	t.Status = task.Status(status)
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	return t, err
}

// CreateTask implements sellerstore.TaskStore.
func (s *Store) CreateTask(ctx context.Context, t sellerstore.Task) (sellerstore.Task, error) {
	if err := t.ValidateNew(); err != nil {
		return sellerstore.Task{}, err
	}
	now := s.now()
	t.CreatedAt, t.UpdatedAt = now, now
	var tag pgconn.CommandTag
	err := s.run(ctx, func(q querier) (err error) {
		tag, err = q.Exec(ctx, `INSERT INTO adcp_tasks (`+taskColumns+`) VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9)
			ON CONFLICT (id) DO NOTHING`, t.ID, t.Principal, t.Tool, string(t.Status), now, t.PushConfig, t.Progress, t.Result, t.Request)
		return err
	})
	if err != nil {
		return sellerstore.Task{}, s.fail(fmt.Sprintf("create task %q", t.ID), err)
	}
	s.backoff.Succeeded()
	if tag.RowsAffected() == 0 {
		return sellerstore.Task{}, storekit.TaskExistsError(t.ID)
	}
	return t, nil
}

// GetTask implements sellerstore.TaskStore.
func (s *Store) GetTask(ctx context.Context, principal, id string) (sellerstore.Task, error) {
	if err := storekit.CheckTaskRef(principal, id); err != nil {
		return sellerstore.Task{}, err
	}
	var t sellerstore.Task
	err := s.run(ctx, func(q querier) (err error) {
		t, err = scanTask(q.QueryRow(ctx, `SELECT `+taskColumns+` FROM adcp_tasks WHERE id = $1 AND principal = $2`, id, principal))
		return err
	})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		s.backoff.Succeeded()
		return sellerstore.Task{}, storekit.TaskNotFoundError(id)
	case err != nil:
		return sellerstore.Task{}, s.fail(fmt.Sprintf("get task %q", id), err)
	}
	s.backoff.Succeeded()
	return t, nil
}

// UpdateTask implements sellerstore.TaskStore. The final-status check is
// in the UPDATE's WHERE, so of concurrent updates finishing a task exactly
// one succeeds.
func (s *Store) UpdateTask(ctx context.Context, principal, id string, u sellerstore.TaskUpdate) (sellerstore.Task, error) {
	if err := storekit.CheckTaskRef(principal, id); err != nil {
		return sellerstore.Task{}, err
	}
	if err := u.Validate(); err != nil {
		return sellerstore.Task{}, err
	}
	var t sellerstore.Task
	var status, holder string
	err := s.run(ctx, func(q querier) error {
		var err error
		// A final status ends the claim on the task's work; a token fences
		// the update to its claim.
		t, err = scanTask(q.QueryRow(ctx, `UPDATE adcp_tasks
			SET status = $3, updated_at = $4, progress = coalesce($5, progress), result = coalesce($6, result),
			    claim_token = CASE WHEN $3 = ANY($7) THEN NULL ELSE claim_token END,
			    claim_until = CASE WHEN $3 = ANY($7) THEN NULL ELSE claim_until END
			WHERE id = $1 AND principal = $2 AND status <> ALL($7) AND ($8 = '' OR claim_token = $8)
			RETURNING `+taskColumns, id, principal, string(u.Status), s.now(), u.Progress, u.Result, finalStatuses(), u.Token))
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		// No row: the task is missing, another principal's, final, or
		// another claim's.
		return q.QueryRow(ctx, `SELECT status, coalesce(claim_token, '') FROM adcp_tasks WHERE id = $1 AND principal = $2`, id, principal).Scan(&status, &holder)
	})
	switch {
	case err == nil && status != "" && task.Status(status).Final():
		s.backoff.Succeeded()
		return sellerstore.Task{}, storekit.TaskFinalError(id, task.Status(status))
	case err == nil && status != "":
		s.backoff.Succeeded()
		return sellerstore.Task{}, storekit.TaskClaimLostError("update", id)
	case err == nil:
		s.backoff.Succeeded()
		return t, nil
	case errors.Is(err, pgx.ErrNoRows):
		s.backoff.Succeeded()
		return sellerstore.Task{}, storekit.TaskNotFoundError(id)
	}
	return sellerstore.Task{}, s.fail(fmt.Sprintf("update task %q", id), err)
}

// ListTasks implements sellerstore.TaskStore with keyset paging on the
// index (principal, created_at DESC, id DESC).
func (s *Store) ListTasks(ctx context.Context, principal string, q sellerstore.TaskQuery) (sellerstore.TaskPage, error) {
	if err := storekit.CheckPrincipal(principal); err != nil {
		return sellerstore.TaskPage{}, err
	}
	if err := q.Validate(); err != nil {
		return sellerstore.TaskPage{}, err
	}
	size, _ := q.PageSize()
	statuses := make([]string, len(q.Statuses))
	for i, st := range q.Statuses {
		statuses[i] = string(st)
	}
	tools := append([]string{}, q.Tools...)
	var afterAt, afterID any // NULL: the first page
	if q.Cursor != "" {
		c, _ := sellerstore.ParseTaskCursor(q.Cursor)
		afterAt, afterID = c.CreatedAt, c.ID
	}
	var tasks []sellerstore.Task
	err := s.run(ctx, func(q querier) error {
		rows, err := q.Query(ctx, `SELECT `+taskColumns+` FROM adcp_tasks
			WHERE principal = $1
			  AND (cardinality($2::text[]) = 0 OR status = ANY($2))
			  AND (cardinality($3::text[]) = 0 OR tool = ANY($3))
			  AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5::text COLLATE "C"))
			ORDER BY created_at DESC, id DESC
			LIMIT $6`, principal, statuses, tools, afterAt, afterID, size+1)
		if err != nil {
			return err
		}
		tasks, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (sellerstore.Task, error) { return scanTask(r) })
		return err
	})
	if err != nil {
		return sellerstore.TaskPage{}, s.fail("list tasks", err)
	}
	s.backoff.Succeeded()
	var page sellerstore.TaskPage
	if len(tasks) > size {
		tasks = tasks[:size]
		page.Next = sellerstore.CursorAfter(tasks[size-1]).String()
	}
	page.Tasks = tasks
	return page, nil
}
