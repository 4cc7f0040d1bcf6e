package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// querier is what the store's statements run on: the pool, or the
// transaction of a unit of work.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// unit is a unit of work of the store: one transaction, begun at its
// first statement. Its statements run one at a time (a pgx.Tx is one
// connection).
type unit struct {
	s        *Store
	mu       sync.Mutex
	tx       pgx.Tx
	done     bool
	solo     bool // its one statement ran by itself (alone)
	onCommit []func()
}

type unitKey struct{}

var _ sellerstore.Atomic = (*Store)(nil)

// Begin implements sellerstore.Atomic: the store's operations with the
// returned context (CreateTask, GetTask, UpdateTask, ListTasks, Complete)
// and InTx's function run in one transaction, begun at the first of them
// and ended by the unit's Commit or Rollback. The transaction holds one of
// the pool's connections from its first statement to its end.
func (s *Store) Begin(ctx context.Context) (context.Context, sellerstore.Unit) {
	u := &unit{s: s}
	return sellerstore.WithUnit(context.WithValue(ctx, unitKey{}, u), u), u
}

// unitOf returns the unit of s that ctx carries, nil when none.
func (s *Store) unitOf(ctx context.Context) *unit {
	u, _ := ctx.Value(unitKey{}).(*unit)
	if u == nil || u.s != s {
		return nil
	}
	return u
}

// run runs fn on the transaction of ctx's unit (begun now when this is
// its first statement), or on the pool when ctx carries no unit of s or
// its unit has ended.
func (s *Store) run(ctx context.Context, fn func(q querier) error) error {
	u := s.unitOf(ctx)
	if u == nil {
		return fn(s.pool)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.done || u.solo {
		return fn(s.pool)
	}
	if u.tx == nil {
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			return err
		}
		u.tx = tx
	}
	return fn(u.tx)
}

// alone reports a unit that has not begun: the statement about to run
// would be its only one when the unit ends right after (Complete, the
// idempotency layer's last). It ends the unit, so that later statements go
// to the pool and Commit only runs the callbacks.
func (u *unit) alone() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.done || u.tx != nil {
		return false
	}
	u.solo = true
	return true
}

func (u *unit) Commit(ctx context.Context) error {
	u.mu.Lock()
	if u.done {
		u.mu.Unlock()
		return errors.New("pgstore: unit of work committed or rolled back already")
	}
	u.done = true
	tx, fns := u.tx, u.onCommit
	u.onCommit = nil
	u.mu.Unlock()
	if tx != nil {
		if err := tx.Commit(ctx); err != nil {
			return u.s.fail("commit", err)
		}
		u.s.backoff.Succeeded()
	}
	for _, fn := range fns {
		fn()
	}
	return nil
}

func (u *unit) Rollback(ctx context.Context) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.done {
		return
	}
	u.done, u.onCommit = true, nil
	if u.tx != nil {
		_ = u.tx.Rollback(ctx) // a lost connection rolls back by itself
	}
}

func (u *unit) OnCommit(fn func()) {
	u.mu.Lock()
	done := u.done
	if !done {
		u.onCommit = append(u.onCommit, fn)
	}
	u.mu.Unlock()
	if done { // the writes of a context whose unit ended go to the pool, at once
		fn()
	}
}

// InTx runs fn, the seller's own writes, in the unit of work ctx carries
// (within a handler behind the idempotency layer, the call's: fn's writes
// then commit with the call's idempotency record and its answer, or not at
// all), in a savepoint of its transaction, so an error of fn undoes fn's
// writes only. Without a unit (or after it ended), fn runs in a
// transaction of its own, committed when fn returns nil. fn must not keep
// tx, nor use it from another goroutine. An error of fn is returned as it
// is; the database's are wrapped, in a *sellerstore.OutageError when
// it cannot be reached (the handler's error then answers
// SERVICE_UNAVAILABLE with the store's retry_after).
func (s *Store) InTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	var fnErr error
	err := s.run(ctx, func(q querier) error {
		var tx pgx.Tx
		var err error
		if t, ok := q.(pgx.Tx); ok {
			tx, err = t.Begin(ctx) // a savepoint
		} else {
			tx, err = s.pool.Begin(ctx)
		}
		if err != nil {
			return err
		}
		if fnErr = fn(tx); fnErr != nil {
			_ = tx.Rollback(ctx)
			return fnErr
		}
		return tx.Commit(ctx)
	})
	switch {
	case err == nil:
		s.backoff.Succeeded()
		return nil
	case fnErr != nil && errors.Is(err, fnErr) && !unavailable(fnErr):
		return fnErr
	}
	return s.fail("transaction", err)
}

// fail wraps an error of the database: a *sellerstore.OutageError,
// paced by the store's backoff, when the database cannot be reached.
func (s *Store) fail(op string, err error) error {
	if unavailable(err) {
		return &sellerstore.OutageError{Op: op, Wait: s.backoff.Failed(time.Now()), Err: err}
	}
	return fmt.Errorf("pgstore: %s: %w", op, err)
}

// unavailable reports an error that says the database cannot be reached
// or cannot answer now, rather than that the statement is wrong: no
// connection (refused, reset, closed, the pool's acquire timing out), a
// timeout, and PostgreSQL's connection-exception (08), insufficient
// resources (53), operator intervention (57: shutting down, restarting,
// canceled), system error (58) and transaction-rollback (40: a
// serialization failure or deadlock, retried) classes.
func unavailable(err error) bool {
	var pe *pgconn.PgError
	switch {
	case err == nil, errors.Is(err, pgx.ErrNoRows), errors.Is(err, context.Canceled):
		return false
	case errors.As(err, &pe):
		switch pe.Code[:2] {
		case "08", "53", "57", "58", "40":
			return true
		}
		return false
	}
	// Not an answer of the server: the network, the pool, a timeout.
	return true
}
