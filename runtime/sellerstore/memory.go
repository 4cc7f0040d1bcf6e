package sellerstore

import (
	"bytes"
	"context"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"slices"
	"strings"
	"sync"
	"time"
)

// Memory is the in-memory Store, for one process. One mutex guards it; each
// operation is short and allocation-bound. It grows by one record per
// idempotency key and one per task, with the stored bytes, until Purge
// removes them.
type Memory struct {
	clock Clock

	mu    sync.Mutex
	idem  map[IdempotencyKey]*Record
	tasks map[string]*Task     // by id
	holds map[string]*taskHold // claims on tasks' work, by task id

	outbox       []*outboxEntry // in enqueue order
	nextDelivery int64

	maxRecords, maxTasks int       // bound.go
	swept                time.Time // the last sweep for what is past its use
}

// NewMemory returns an empty in-memory store reading time from clock
// (SystemClock when nil).
func NewMemory(clock Clock) *Memory {
	if clock == nil {
		clock = SystemClock{}
	}
	return &Memory{clock: clock, idem: map[IdempotencyKey]*Record{}, tasks: map[string]*Task{}, holds: map[string]*taskHold{},
		maxRecords: DefaultMaxRecords, maxTasks: DefaultMaxTasks}
}

var (
	_ Store  = (*Memory)(nil)
	_ Atomic = (*Memory)(nil)
)

// Claim implements IdempotencyStore.
func (m *Memory) Claim(ctx context.Context, req ClaimRequest) (Claim, error) {
	if err := req.Validate(); err != nil {
		return Claim{}, err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	rec := m.idem[req.IdempotencyKey]
	if rec != nil && !rec.TakeableBy(req.Fingerprint, now) {
		return rec.Answer(req.Fingerprint, now), nil
	}
	if rec == nil {
		if err := m.roomForRecord(now); err != nil {
			return Claim{}, err
		}
	}
	rec = &Record{
		Fingerprint: req.Fingerprint,
		Token:       storekit.NewToken(),
		ClaimedAt:   now,
		LeaseUntil:  now.Add(req.Lease),
		Retention:   req.Retention,
	}
	m.idem[req.IdempotencyKey] = rec
	return Claim{Outcome: Claimed, Token: rec.Token, ClaimedAt: rec.ClaimedAt, LeaseUntil: rec.LeaseUntil}, nil
}

// held returns the record token holds, or nil.
func (m *Memory) held(key IdempotencyKey, token string) *Record {
	rec := m.idem[key]
	if rec == nil || rec.Completed || rec.Token != token {
		return nil
	}
	return rec
}

// Renew implements IdempotencyStore.
func (m *Memory) Renew(ctx context.Context, key IdempotencyKey, token string, lease time.Duration) error {
	if err := checkHold(key, token); err != nil {
		return err
	}
	if err := storekit.CheckLease(lease); err != nil {
		return err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	rec := m.held(key, token)
	if rec == nil {
		return storekit.ClaimLostError("renew", key.Tool, key.Key)
	}
	rec.LeaseUntil = now.Add(lease)
	return nil
}

// Complete implements IdempotencyStore.
func (m *Memory) Complete(ctx context.Context, key IdempotencyKey, token string, resp StoredResponse) error {
	if err := checkHold(key, token); err != nil {
		return err
	}
	if err := resp.Validate(); err != nil {
		return err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	rec := m.held(key, token)
	if rec == nil {
		return storekit.ClaimLostError("complete", key.Tool, key.Key)
	}
	rec.Completed = true
	rec.Response = StoredResponse{Body: bytes.Clone(resp.Body), Status: resp.Status, TaskID: resp.TaskID}
	rec.CompletedAt = now
	rec.ExpiresAt = now.Add(rec.Retention)
	return nil
}

// Release implements IdempotencyStore.
func (m *Memory) Release(ctx context.Context, key IdempotencyKey, token string) error {
	if err := checkHold(key, token); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.held(key, token) == nil {
		return storekit.ClaimLostError("release", key.Tool, key.Key)
	}
	delete(m.idem, key)
	return nil
}

// CreateTask implements TaskStore.
func (m *Memory) CreateTask(ctx context.Context, t Task) (Task, error) {
	if err := t.ValidateNew(); err != nil {
		return Task{}, err
	}
	now := storekit.Timestamp(m.clock.Now())
	t = cloneTask(t)
	t.CreatedAt, t.UpdatedAt = now, now
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, taken := m.tasks[t.ID]; taken {
		return Task{}, storekit.TaskExistsError(t.ID)
	}
	if err := m.roomForTask(now); err != nil {
		return Task{}, err
	}
	m.tasks[t.ID] = &t
	return cloneTask(t), nil
}

// task returns the principal's task or nil.
func (m *Memory) task(principal, id string) *Task {
	t := m.tasks[id]
	if t == nil || t.Principal != principal {
		return nil
	}
	return t
}

// GetTask implements TaskStore.
func (m *Memory) GetTask(ctx context.Context, principal, id string) (Task, error) {
	if err := storekit.CheckTaskRef(principal, id); err != nil {
		return Task{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.task(principal, id)
	if t == nil {
		return Task{}, storekit.TaskNotFoundError(id)
	}
	return cloneTask(*t), nil
}

// UpdateTask implements TaskStore.
func (m *Memory) UpdateTask(ctx context.Context, principal, id string, u TaskUpdate) (Task, error) {
	if err := storekit.CheckTaskRef(principal, id); err != nil {
		return Task{}, err
	}
	if err := u.Validate(); err != nil {
		return Task{}, err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.task(principal, id)
	if t == nil {
		return Task{}, storekit.TaskNotFoundError(id)
	}
	if !storekit.CanTransition(t.Status, u.Status) {
		return Task{}, storekit.TaskFinalError(id, t.Status)
	}
	if u.Token != "" && m.heldTask(principal, id, u.Token) == nil {
		return Task{}, storekit.TaskClaimLostError("update", id)
	}
	if u.Status.Final() {
		delete(m.holds, id)
	}
	t.Status = u.Status
	t.UpdatedAt = now
	if u.Progress != nil {
		t.Progress = bytes.Clone(u.Progress)
	}
	if u.Result != nil {
		t.Result = bytes.Clone(u.Result)
	}
	return cloneTask(*t), nil
}

// ListTasks implements TaskStore. It scans every task: fine for the
// in-process default, not for millions of tasks.
func (m *Memory) ListTasks(ctx context.Context, principal string, q TaskQuery) (TaskPage, error) {
	if err := storekit.CheckPrincipal(principal); err != nil {
		return TaskPage{}, err
	}
	if err := q.Validate(); err != nil {
		return TaskPage{}, err
	}
	size, _ := q.PageSize()
	var after *TaskCursor
	if q.Cursor != "" {
		c, _ := ParseTaskCursor(q.Cursor)
		after = &c
	}
	m.mu.Lock()
	var hits []Task
	for _, t := range m.tasks {
		if t.Principal == principal && q.Matches(*t) && (after == nil || after.Precedes(*t)) {
			hits = append(hits, *t)
		}
	}
	m.mu.Unlock()
	slices.SortFunc(hits, func(a, b Task) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	var page TaskPage
	if len(hits) > size {
		hits = hits[:size]
		page.Next = CursorAfter(hits[size-1]).String()
	}
	for _, t := range hits {
		page.Tasks = append(page.Tasks, cloneTask(t))
	}
	return page, nil
}

// Purge implements Store.
func (m *Memory) Purge(ctx context.Context, cutoff time.Time) (Purged, error) {
	cutoff = storekit.PurgeCutoff(cutoff)
	var n Purged
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, rec := range m.idem {
		if rec.PurgeableAt(cutoff) {
			delete(m.idem, k)
			n.Idempotency++
		}
	}
	for id, t := range m.tasks {
		if t.Status.Final() && t.UpdatedAt.Before(cutoff) {
			delete(m.tasks, id)
			delete(m.holds, id)
			n.Tasks++
		}
	}
	n.Deliveries = m.purgeOutbox(cutoff)
	return n, nil
}

func cloneTask(t Task) Task {
	t.Request = bytes.Clone(t.Request)
	t.PushConfig = bytes.Clone(t.PushConfig)
	t.Progress = bytes.Clone(t.Progress)
	t.Result = bytes.Clone(t.Result)
	return t
}

// checkHold validates the arguments of Complete, Release and Renew.
func checkHold(key IdempotencyKey, token string) error {
	if err := key.Validate(); err != nil {
		return err
	}
	return storekit.CheckToken(token)
}
