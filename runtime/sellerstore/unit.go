package sellerstore

import (
	"context"
	"sync"
)

// Atomic is a Store whose writes, and the seller's own, can be made one
// unit of work: all kept or none. The idempotency layer (runtime/idempotency)
// runs each call's handler in a unit and completes the idempotency record
// in it, so that what the handler wrote (a media buy, the task it started)
// and the answer it gave are durable together or not at all; sellertask
// records a task's final answer and its webhook in one.
//
// A store's operations made with a context carrying one of its units join
// it (Claim, Renew and Release never do: they are the claim's own, kept
// outside the work it guards). Memory and pgstore are Atomic: Memory
// applies each write at once and cannot roll one back (one process, no
// store to lose); pgstore makes the unit one PostgreSQL transaction, begun
// at its first write, which the seller's own statements join through
// pgstore's InTx.
type Atomic interface {
	Store
	// Begin returns ctx carrying a new unit of work of the store (found
	// again by AfterCommit) and the unit. Commit or Rollback it.
	Begin(ctx context.Context) (context.Context, Unit)
}

// Unit is one unit of work of an Atomic store.
type Unit interface {
	// Commit makes the unit's writes durable, then runs what OnCommit
	// registered. After an error nothing of the unit is kept, except when
	// the store lost its connection during the commit itself: the outcome
	// is then unknown until read back (the idempotency layer reads its
	// record again).
	Commit(ctx context.Context) error
	// Rollback drops the unit's writes (where the store can); after Commit
	// it does nothing.
	Rollback(ctx context.Context)
	// OnCommit registers fn to run after a successful Commit, in the
	// committing goroutine; a unit rolled back drops it.
	OnCommit(fn func())
}

type unitKey struct{}

// WithUnit returns ctx carrying u: what an Atomic store's Begin returns,
// so that AfterCommit finds the unit whatever the store.
func WithUnit(ctx context.Context, u Unit) context.Context {
	return context.WithValue(ctx, unitKey{}, u)
}

// InUnit reports whether ctx carries a unit of work (of any store).
func InUnit(ctx context.Context) bool {
	u, ok := ctx.Value(unitKey{}).(Unit)
	return ok && u != nil
}

// AfterCommit runs fn once the unit of work ctx carries commits (a webhook
// to post once its task's update is durable), or at once when ctx carries
// none.
func AfterCommit(ctx context.Context, fn func()) {
	if u, ok := ctx.Value(unitKey{}).(Unit); ok && u != nil {
		u.OnCommit(fn)
		return
	}
	fn()
}

// memoryUnit is Memory's unit: its writes are applied at once, so Commit
// only runs the callbacks.
type memoryUnit struct {
	mu       sync.Mutex
	done     bool
	onCommit []func()
}

// Begin implements Atomic.
func (m *Memory) Begin(ctx context.Context) (context.Context, Unit) {
	u := &memoryUnit{}
	return WithUnit(ctx, u), u
}

func (u *memoryUnit) Commit(context.Context) error {
	u.mu.Lock()
	fns := u.onCommit
	u.onCommit, u.done = nil, true
	u.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
	return nil
}

func (u *memoryUnit) Rollback(context.Context) {
	u.mu.Lock()
	u.onCommit, u.done = nil, true
	u.mu.Unlock()
}

func (u *memoryUnit) OnCommit(fn func()) {
	u.mu.Lock()
	done := u.done
	if !done {
		u.onCommit = append(u.onCommit, fn)
	}
	u.mu.Unlock()
	if done { // a write after the unit ended is applied at once, as Memory's writes are
		fn()
	}
}
