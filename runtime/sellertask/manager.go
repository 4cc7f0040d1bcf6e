package sellertask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// anonymous scopes the tasks of calls made without credentials (a server
// without an Authenticator): they all share it.
const anonymous = "anonymous"

// Options configure a Manager.
type Options struct {
	// Store keeps the tasks; replicas sharing one share their tasks. nil
	// means sellerstore.NewMemory(nil).
	Store sellerstore.TaskStore
	// Sender posts a task's updates to the push_notification_config URL of
	// the request that started it; nil posts none (buyers poll).
	Sender *webhook.Sender
	// Logger gets failed deliveries and store errors; nil discards.
	Logger *slog.Logger
	// Now is the clock of webhook timestamps and of the retry schedule:
	// the Store's clock, when that is not the wall's; nil means time.Now.
	Now func() time.Time
	// Refresh, when set, runs before a task is read for a buyer (the
	// status tools, and Get for A2A's tasks/get) with the caller's
	// principal and the task id asked for, so a seller can bring the task
	// up to date lazily (ask an upstream system, then report through its
	// TaskHandle, or seller.OpenTask on any replica). An error is logged;
	// the task is read as it is. Reads of the Manager from within Refresh
	// do not call it again.
	Refresh func(ctx context.Context, principal, id string) error
	// Lease is how long a claim on a task's work (seller.WorkOnTask, Work)
	// holds without renewal: how soon after its worker's replica died
	// another replica may take the task over. The worker renews it every
	// third of a lease while it works. 0 means DefaultWorkLease.
	Lease time.Duration
	// Work, when set, is the work of the server's tasks, done in the
	// background: the Manager runs it, on one replica at a time, for each
	// open task that no live claim holds: as soon as the call that started
	// it is recorded, again half a lease after a round that left it open,
	// and when its worker's replica died (its claim lapsed). ctx holds the
	// task's claim, so seller.WorkOnTask and seller.OpenTask within it
	// report under the claim (and, with pgstore, in one transaction with
	// the seller's own writes). principal is the task's owner ("anonymous"
	// for calls without credentials). Return nil to leave the task open
	// for the next round; an error is logged.
	Work func(ctx context.Context, principal, id string) error
	// Observer is told of each task created and updated, each webhook
	// delivery (the Sender's Observer sees its posts) and each store call
	// (runtime/oteladcp makes spans and metrics of them: pending tasks,
	// deliveries by outcome and age). A delivery continues the trace of
	// the update that made it. nil observes nothing, at no cost.
	Observer observe.Observer
}

// Manager is a seller.TaskManager on a sellerstore.TaskStore: it creates a
// task when a handler answers submitted (seller.StartTask), records its
// progress and final answer, answers the version's status tools from the
// store (ServeStatusTools), and posts each update to the buyer's webhook
// when the request carried a push_notification_config. A task belongs to
// the principal whose call started it: another principal's task is
// reported exactly like a missing one.
type Manager struct {
	spec    *registry.Spec
	store   sellerstore.TaskStore
	sender  *webhook.Sender
	log     *slog.Logger
	now     func() time.Time
	refresh func(ctx context.Context, principal, id string) error
	obs     observe.Observer
	atomic  sellerstore.Atomic // the store's units of work, nil when it has none
	lease   time.Duration
	work    func(ctx context.Context, principal, id string) error
	kicked  chan struct{} // a task was started: sweep now
	workers sync.WaitGroup

	// ctx is the deliveries' context: Close cancels it.
	ctx    context.Context
	cancel context.CancelFunc

	// The webhook outbox and its dispatcher (deliver.go).
	outbox       sellerstore.Outbox
	dispatchKick chan struct{}
	stopDispatch chan struct{}
	dispatching  sync.WaitGroup

	mu     sync.Mutex
	owed   map[int64]bool // deliveries enqueued here and not seen settled
	idle   chan struct{}  // closed while owed is empty
	closed bool           // Close was called: no new deliveries
}

// New returns a Manager for the tasks of a server of spec.
func New(spec *registry.Spec, opts Options) *Manager {
	m := &Manager{spec: spec, store: opts.Store, sender: opts.Sender, log: opts.Logger, now: opts.Now, refresh: opts.Refresh,
		obs: opts.Observer, lease: opts.Lease, work: opts.Work, kicked: make(chan struct{}, 1),
		dispatchKick: make(chan struct{}, 1), stopDispatch: make(chan struct{}), owed: map[int64]bool{}, idle: make(chan struct{})}
	close(m.idle)
	m.ctx, m.cancel = context.WithCancel(context.Background())
	if m.store == nil {
		m.store = sellerstore.NewMemory(nil)
	}
	if m.lease <= 0 {
		m.lease = DefaultWorkLease
	}
	m.atomic, _ = m.store.(sellerstore.Atomic)
	if m.outbox, _ = m.store.(sellerstore.Outbox); m.outbox == nil {
		m.outbox = sellerstore.NewMemory(nil) // one process's, as the store keeps none
	}
	if m.obs != nil {
		m.store = observedStore{m.store, m.obs}
	}
	if m.log == nil {
		m.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if m.now == nil {
		m.now = time.Now
	}
	if m.work != nil {
		m.workers.Add(1)
		go m.sweep()
	}
	if m.sender != nil {
		m.dispatching.Add(1)
		go m.dispatch()
	}
	return m
}

func principalID(p string) string {
	if p == "" {
		return anonymous
	}
	return p
}

// Start implements seller.TaskManager. A push_notification_config the
// Sender would refuse (an internal or non-https URL, a weak HMAC secret)
// fails the call with a correctable INVALID_REQUEST instead of a webhook
// that can never be delivered.
func (m *Manager) Start(ctx context.Context, c *seller.Call) (string, error) {
	id := seller.NewTaskID()
	return id, m.StartWithID(ctx, c, id)
}

// StartWithID implements seller.TaskIDStarter: Start under the id given.
// An id the store holds already is an error wrapping
// seller.ErrTaskIDTaken.
func (m *Manager) StartWithID(ctx context.Context, c *seller.Call, id string) (err error) {
	if m.obs != nil {
		op := &observe.Op{Kind: observe.CreateTask, Tool: c.Tool.Name, TaskID: id}
		var end func()
		ctx, end = m.obs.Start(ctx, op)
		defer func() { op.Err = err; end() }()
	}
	t := sellerstore.Task{ID: id, Principal: principalID(c.Principal.ID), Tool: c.Tool.Name, Status: task.Submitted, Request: c.Arguments}
	if raw := c.Member("push_notification_config"); wire.Lenient(raw).IsObject() {
		if e := m.checkPushConfig(c); e != nil {
			return e
		}
		t.PushConfig = raw
	}
	if _, err := m.store.CreateTask(ctx, t); err != nil {
		if errors.Is(err, sellerstore.ErrExists) {
			return fmt.Errorf("sellertask: %w: %w", seller.ErrTaskIDTaken, err)
		}
		return fmt.Errorf("sellertask: %w", err)
	}
	if m.work != nil {
		sellerstore.AfterCommit(ctx, m.kick) // its work starts once the task is durable
	}
	return nil
}

// Update implements seller.TaskManager: it records the answer as the
// task's progress (interim) or result (final) and, when the request
// carried a push_notification_config, the webhook reporting it in the
// store's outbox, in one unit of work (the caller's, or one of its own),
// then returns; whichever replica claims the webhook posts it.
func (m *Manager) Update(ctx context.Context, ev seller.TaskEvent) (err error) {
	a := ev.Answer
	if a == nil {
		return errors.New("sellertask: task update without an answer")
	}
	status := a.Status
	if a.Error != nil && !status.Final() {
		status = task.Failed
	}
	if m.obs != nil {
		op := &observe.Op{Kind: observe.UpdateTask, Tool: ev.Tool, TaskID: ev.ID, Status: string(status)}
		if a.Error != nil {
			op.Code, op.Recovery = a.Error.Code, string(a.Error.Recovery)
		}
		var end func()
		ctx, end = m.obs.Start(ctx, op)
		defer func() { op.Err = err; end() }()
	}
	stored, err := encodeAnswer(a)
	if err != nil {
		return fmt.Errorf("sellertask: task %s: %w", ev.ID, err)
	}
	if m.atomic != nil && m.sender != nil && !sellerstore.InUnit(ctx) {
		// The update and its webhook are kept together, or neither.
		var unit sellerstore.Unit
		ctx, unit = m.atomic.Begin(ctx)
		defer func() {
			if err != nil {
				unit.Rollback(context.WithoutCancel(ctx))
			} else if err = unit.Commit(context.WithoutCancel(ctx)); err != nil {
				err = fmt.Errorf("sellertask: task %s: %w", ev.ID, err)
			}
		}()
	}
	u := sellerstore.TaskUpdate{Status: status}
	if h := heldIn(ctx, ev.ID); h != nil {
		u.Token = h.token // the update of a claim's work: fenced by it
	}
	if status.Final() {
		u.Result = stored
	} else {
		u.Progress = stored
	}
	t, err := m.store.UpdateTask(ctx, principalID(ev.Principal), ev.ID, u)
	if err != nil {
		switch {
		case errors.Is(err, sellerstore.ErrNotFound):
			return fmt.Errorf("sellertask: %w: %w", seller.ErrTaskNotFound, err)
		case errors.Is(err, sellerstore.ErrTaskFinal):
			return fmt.Errorf("sellertask: %w: %w", seller.ErrTaskEnded, err)
		case errors.Is(err, sellerstore.ErrClaimLost):
			return fmt.Errorf("sellertask: the claim on the task's work was taken over: %w: %w", seller.ErrTaskBusy, err)
		}
		return fmt.Errorf("sellertask: %w", err)
	}
	if len(t.PushConfig) > 0 && m.sender != nil {
		if err := m.enqueue(ctx, t, a, status); err != nil {
			return fmt.Errorf("sellertask: task %s: its webhook: %w", ev.ID, err)
		}
	}
	return nil
}

// Get implements seller.TaskManager.
func (m *Manager) Get(ctx context.Context, principal, id string) (seller.TaskSnapshot, error) {
	t, err := m.read(ctx, principal, id)
	if err != nil {
		if errors.Is(err, sellerstore.ErrNotFound) || errors.Is(err, sellerstore.ErrInvalid) {
			return seller.TaskSnapshot{}, fmt.Errorf("sellertask: task %q: %w", id, seller.ErrTaskNotFound)
		}
		return seller.TaskSnapshot{}, fmt.Errorf("sellertask: %w", err)
	}
	return m.snapshot(t)
}

// read returns the principal's task after Refresh. Reads made from
// within Refresh (seller.OpenTask calls Get) do not refresh again.
func (m *Manager) read(ctx context.Context, principal, id string) (sellerstore.Task, error) {
	if m.refresh != nil && ctx.Value(refreshing{}) == nil {
		if err := m.refresh(context.WithValue(ctx, refreshing{}, true), principal, id); err != nil {
			m.log.ErrorContext(ctx, "adcp: task refresh failed", "task", id, "err", err.Error())
		}
	}
	return m.store.GetTask(ctx, principalID(principal), id)
}

// refreshing marks the context of a Refresh call.
type refreshing struct{}

func (m *Manager) snapshot(t sellerstore.Task) (seller.TaskSnapshot, error) {
	s := seller.TaskSnapshot{ID: t.ID, Principal: t.Principal, Tool: t.Tool, Status: t.Status, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
		Request: t.Request}
	stored := t.Progress
	if t.Status.Final() {
		stored = t.Result
	}
	a, err := decodeAnswer(stored, m.spec)
	if err != nil {
		return seller.TaskSnapshot{}, fmt.Errorf("sellertask: task %s: %w", t.ID, err)
	}
	if a != nil {
		a.Status, a.TaskID = s.Status, t.ID
	}
	s.Answer = a
	return s, nil
}

// Wait blocks until every webhook this Manager recorded so far has been
// delivered or given up by its dispatcher, or ctx ends, or the Manager is
// closed: for tests and one-replica shutdowns (a webhook another replica's
// dispatcher delivers is not seen here).
func (m *Manager) Wait(ctx context.Context) error {
	m.mu.Lock()
	idle, closed := m.idle, m.closed
	m.mu.Unlock()
	if closed {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the Manager's dispatcher and background work, before
// shutting down: no attempt starts (updates and their webhooks are still
// recorded), the posts under way may finish until ctx ends, then they are
// cancelled. Nothing is dropped: an undelivered webhook stays in the
// store's outbox for another replica, or the next start, to post (with an
// in-memory store, it is lost with the process). It returns once every
// post and Work has returned, with ctx's error when some were cancelled.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	already := m.closed
	m.closed = true
	m.owed = map[int64]bool{}
	m.mu.Unlock()
	if !already {
		close(m.stopDispatch)
	}
	done := make(chan struct{})
	go func() {
		m.dispatching.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	m.cancel()
	<-done
	m.workers.Wait() // Work's context ends with the Manager's; its claims are released or lapse
	return err
}

// pick returns the first code the spec lists, else the last one.
func (m *Manager) pick(codes ...string) string {
	for _, c := range codes {
		if _, ok := m.spec.Recovery(c); ok {
			return c
		}
	}
	return codes[len(codes)-1]
}
