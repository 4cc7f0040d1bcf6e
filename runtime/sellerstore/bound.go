package sellerstore

import (
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
)

// Memory's bounds and retention: it holds one process's state within a
// fixed size and drops, on its own, what is past its use.
const (
	// DefaultMaxRecords bounds Memory's idempotency records (about 1 KB
	// each with a create_media_buy answer). When every one is still in use
	// a new key is refused with ErrFull (AdCP security.mdx rule 8: reject
	// with RATE_LIMITED rather than grow the cache without bound).
	DefaultMaxRecords = 100_000
	// DefaultMaxTasks bounds Memory's tasks; ended tasks are dropped
	// first, oldest first, when it is reached.
	DefaultMaxTasks = 100_000
	// memoryGrace is how long past its use Memory keeps a record: a
	// completed one answers IDEMPOTENCY_EXPIRED for this long after its
	// replay window, an abandoned claim is kept this long past its lease,
	// a settled delivery this long after it settled.
	memoryGrace = time.Hour
	// memoryTaskRetention is how long Memory keeps a task after it ended:
	// as long as the replay window of the answers that name it.
	memoryTaskRetention = 24 * time.Hour
	// memorySweep is how often, at most, Memory looks for what to drop.
	memorySweep = time.Minute
)

// ErrFull: a bounded store holds as many records as it may, all still in
// use (Memory's DefaultMaxRecords). The idempotency layer answers
// RATE_LIMITED, with the wait until one lapses as retry_after.
var ErrFull = storekit.ErrFull

// SetCapacity bounds m to records idempotency records and tasks tasks (0
// keeps the current bound); NewMemory's are DefaultMaxRecords and
// DefaultMaxTasks.
func (m *Memory) SetCapacity(records, tasks int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if records > 0 {
		m.maxRecords = records
	}
	if tasks > 0 {
		m.maxTasks = tasks
	}
}

// sweep drops what is past its use, at most once a memorySweep unless
// forced; m.mu is held.
func (m *Memory) sweep(now time.Time, force bool) {
	if !force && now.Sub(m.swept) < memorySweep {
		return
	}
	m.swept = now
	cutoff := now.Add(-memoryGrace)
	for k, rec := range m.idem {
		if rec.PurgeableAt(cutoff) {
			delete(m.idem, k)
		}
	}
	taskCutoff := now.Add(-memoryTaskRetention)
	for id, t := range m.tasks {
		if t.Status.Final() && t.UpdatedAt.Before(taskCutoff) {
			delete(m.tasks, id)
			delete(m.holds, id)
		}
	}
	m.purgeOutbox(cutoff)
}

// roomForRecord makes room for a new idempotency record or says when one
// will lapse; m.mu is held.
func (m *Memory) roomForRecord(now time.Time) error {
	m.sweep(now, false)
	if len(m.idem) < m.maxRecords {
		return nil
	}
	m.sweep(now, true)
	if len(m.idem) < m.maxRecords {
		return nil
	}
	next := time.Time{}
	for _, rec := range m.idem {
		end := rec.LeaseUntil
		if rec.Completed {
			end = rec.ExpiresAt
		}
		if end = end.Add(memoryGrace); next.IsZero() || end.Before(next) {
			next = end
		}
	}
	return &OutageError{Op: "claim", Wait: max(next.Sub(now), time.Second),
		Err: fmt.Errorf("%d idempotency records, all in use: %w", len(m.idem), ErrFull)}
}

// roomForTask makes room for a new task by dropping the oldest ended
// ones; m.mu is held.
func (m *Memory) roomForTask(now time.Time) error {
	m.sweep(now, false)
	for len(m.tasks) >= m.maxTasks {
		var oldest *Task
		for _, t := range m.tasks {
			if t.Status.Final() && (oldest == nil || t.UpdatedAt.Before(oldest.UpdatedAt)) {
				oldest = t
			}
		}
		if oldest == nil {
			return &OutageError{Op: "create task", Wait: time.Minute,
				Err: fmt.Errorf("%d tasks, all open: %w", len(m.tasks), ErrFull)}
		}
		delete(m.tasks, oldest.ID)
		delete(m.holds, oldest.ID)
	}
	return nil
}
