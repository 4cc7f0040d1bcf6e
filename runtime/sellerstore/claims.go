package sellerstore

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
)

// taskHold is a live or lapsed claim on a task's work in Memory.
type taskHold struct {
	token string
	until time.Time
}

// ClaimTask implements TaskStore.
func (m *Memory) ClaimTask(ctx context.Context, principal, id string, lease time.Duration) (TaskClaim, error) {
	if err := storekit.CheckTaskRef(principal, id); err != nil {
		return TaskClaim{}, err
	}
	if err := storekit.CheckLease(lease); err != nil {
		return TaskClaim{}, err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.task(principal, id)
	switch {
	case t == nil:
		return TaskClaim{}, storekit.TaskNotFoundError(id)
	case t.Status.Final():
		return TaskClaim{}, storekit.TaskFinalError(id, t.Status)
	}
	if h := m.holds[id]; h != nil && now.Before(h.until) {
		return TaskClaim{}, storekit.TaskClaimedError(id)
	}
	return m.hold(t, now, lease), nil
}

// hold gives t a new claim; m.mu is held.
func (m *Memory) hold(t *Task, now time.Time, lease time.Duration) TaskClaim {
	h := &taskHold{token: storekit.NewToken(), until: now.Add(lease)}
	m.holds[t.ID] = h
	return TaskClaim{Task: cloneTask(*t), Token: h.token, Until: h.until}
}

// held returns the hold token has on the principal's open task, or nil.
func (m *Memory) heldTask(principal, id, token string) *taskHold {
	t := m.task(principal, id)
	h := m.holds[id]
	if t == nil || t.Status.Final() || h == nil || h.token != token {
		return nil
	}
	return h
}

// RenewTask implements TaskStore.
func (m *Memory) RenewTask(ctx context.Context, principal, id, token string, lease time.Duration) error {
	if err := checkTaskHold(principal, id, token); err != nil {
		return err
	}
	if err := storekit.CheckLease(lease); err != nil {
		return err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	h := m.heldTask(principal, id, token)
	if h == nil {
		return storekit.TaskClaimLostError("renew", id)
	}
	h.until = now.Add(lease)
	return nil
}

// ReleaseTask implements TaskStore.
func (m *Memory) ReleaseTask(ctx context.Context, principal, id, token string) error {
	if err := checkTaskHold(principal, id, token); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.heldTask(principal, id, token) == nil {
		return storekit.TaskClaimLostError("release", id)
	}
	delete(m.holds, id)
	return nil
}

// ClaimIdle implements TaskStore.
func (m *Memory) ClaimIdle(ctx context.Context, lease time.Duration, limit int) ([]TaskClaim, error) {
	if err := storekit.CheckLease(lease); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	var idle []*Task
	for id, t := range m.tasks {
		if h := m.holds[id]; !t.Status.Final() && (h == nil || !now.Before(h.until)) {
			idle = append(idle, t)
		}
	}
	slices.SortFunc(idle, func(a, b *Task) int {
		if c := a.UpdatedAt.Compare(b.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	var out []TaskClaim
	for _, t := range idle[:min(limit, len(idle))] {
		out = append(out, m.hold(t, now, lease))
	}
	return out, nil
}

func checkTaskHold(principal, id, token string) error {
	if err := storekit.CheckTaskRef(principal, id); err != nil {
		return err
	}
	return storekit.CheckToken(token)
}
