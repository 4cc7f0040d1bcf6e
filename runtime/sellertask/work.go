package sellertask

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// DefaultWorkLease is Options.Lease's default.
const DefaultWorkLease = 10 * time.Second

// maxWorkers bounds the Work rounds one Manager runs at once.
const maxWorkers = 8

// held is the claim on a task's work a context carries.
type held struct {
	principal string // as the store keeps it
	id, token string
}

type heldKey struct{}

// heldIn returns the claim ctx carries on task id, nil when none.
func heldIn(ctx context.Context, id string) *held {
	h, _ := ctx.Value(heldKey{}).(*held)
	if h == nil || h.id != id {
		return nil
	}
	return h
}

var _ seller.TaskWorker = (*Manager)(nil)

// Work implements seller.TaskWorker: it claims the task's work in the
// store (ClaimTask, leased for Options.Lease and renewed while fn runs),
// runs fn in the store's unit of work when it has them, commits the unit
// when fn returns nil (fn's writes, the task's final answer and its
// webhook together) or rolls it back, and releases the claim.
func (m *Manager) Work(ctx context.Context, principal, id string, fn func(ctx context.Context) error) error {
	if heldIn(ctx, id) != nil {
		return fn(ctx)
	}
	c, err := m.store.ClaimTask(ctx, principalID(principal), id, m.lease)
	switch {
	case errors.Is(err, sellerstore.ErrNotFound), errors.Is(err, sellerstore.ErrInvalid):
		return fmt.Errorf("sellertask: task %q: %w", id, seller.ErrTaskNotFound)
	case errors.Is(err, sellerstore.ErrTaskFinal):
		return fmt.Errorf("sellertask: %w: %w", seller.ErrTaskEnded, err)
	case errors.Is(err, sellerstore.ErrTaskClaimed):
		return fmt.Errorf("sellertask: %w: %w", seller.ErrTaskBusy, err)
	case err != nil:
		return fmt.Errorf("sellertask: claim task %q: %w", id, err)
	}
	return m.workHolding(ctx, c, fn)
}

// workHolding runs fn holding c.
func (m *Manager) workHolding(ctx context.Context, c sellerstore.TaskClaim, fn func(ctx context.Context) error) error {
	h := &held{principal: c.Task.Principal, id: c.Task.ID, token: c.Token}
	wctx, cancel := context.WithCancel(context.WithValue(ctx, heldKey{}, h))
	defer cancel()
	beat := m.renewClaim(ctx, h, cancel)
	defer beat()
	var unit sellerstore.Unit
	if m.atomic != nil {
		wctx, unit = m.atomic.Begin(wctx)
	}
	err := fn(wctx)
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer scancel()
	if unit != nil {
		if err != nil {
			unit.Rollback(sctx)
		} else if err = unit.Commit(sctx); err != nil {
			err = fmt.Errorf("sellertask: task %s: the work's writes: %w", h.id, err)
		}
	}
	beat()
	// A task finished ends its claim; an open one is given back for the
	// next worker.
	if rerr := m.store.ReleaseTask(sctx, h.principal, h.id, h.token); rerr != nil && !errors.Is(rerr, sellerstore.ErrClaimLost) {
		m.log.WarnContext(ctx, "adcp: task claim not released; it lapses with its lease", "task", h.id, "err", rerr.Error())
	}
	return err
}

// renewClaim renews h every third of a lease until the returned stop is
// called; a claim found lost (taken over) cancels the work.
func (m *Manager) renewClaim(ctx context.Context, h *held, lost func()) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(m.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.lease/3)
			err := m.store.RenewTask(rctx, h.principal, h.id, h.token, m.lease)
			cancel()
			switch {
			case errors.Is(err, sellerstore.ErrClaimLost):
				m.log.ErrorContext(ctx, "adcp: task claim lost while its work ran", "task", h.id)
				lost()
				return
			case err != nil:
				m.log.WarnContext(ctx, "adcp: task claim not renewed", "task", h.id, "err", err.Error())
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-finished
	}
}

// kick asks the sweeper to look for work now (a task was started).
func (m *Manager) kick() {
	select {
	case m.kicked <- struct{}{}:
	default:
	}
}

// sweep runs Options.Work for open tasks no live claim holds, every half
// lease and when kicked, until the Manager closes.
func (m *Manager) sweep() {
	defer m.workers.Done()
	slots := make(chan struct{}, maxWorkers)
	t := time.NewTicker(m.lease / 2)
	defer t.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
		case <-m.kicked:
		}
		free := maxWorkers - len(slots)
		if free == 0 {
			continue
		}
		claims, err := m.store.ClaimIdle(m.ctx, m.lease, free)
		if err != nil {
			if m.ctx.Err() == nil {
				m.log.WarnContext(m.ctx, "adcp: task sweep failed", "err", err.Error())
			}
			continue
		}
		for _, c := range claims {
			slots <- struct{}{}
			m.workers.Add(1)
			go func() {
				defer func() { <-slots; m.workers.Done() }()
				err := m.workHolding(m.ctx, c, func(ctx context.Context) error {
					return m.work(ctx, c.Task.Principal, c.Task.ID)
				})
				if err != nil && m.ctx.Err() == nil && !errors.Is(err, seller.ErrTaskEnded) {
					m.log.ErrorContext(m.ctx, "adcp: task work failed", "task", c.Task.ID, "err", err.Error())
				}
			}()
		}
	}
}
