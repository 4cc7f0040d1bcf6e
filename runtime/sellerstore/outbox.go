package sellerstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
)

// Outbox keeps the webhooks a seller owes its buyers until they are
// delivered, so that none is lost: written with the task transition it
// reports (in the same unit of work, so a transition is never durable
// without its notification, nor a notification without its transition),
// posted by whichever replica claims it, retried on the Sender's schedule
// until delivered or past its deadline, its body (and so its
// idempotency_key) the same on every attempt.
type Outbox interface {
	// Enqueue records a delivery to make. With a context carrying a unit
	// of work of the store it joins the unit.
	Enqueue(ctx context.Context, d Delivery) (Delivery, error)
	// ClaimDue claims, for lease, up to limit deliveries that are due (their
	// next attempt's time has come) and that no live claim holds, oldest
	// first, one task's in order: a delivery waits until the earlier ones
	// of its task are settled. Concurrent callers get different ones.
	ClaimDue(ctx context.Context, lease time.Duration, limit int) ([]Delivery, error)
	// Settle records the outcome of an attempt at a claimed delivery
	// (ErrClaimLost when token no longer holds it).
	Settle(ctx context.Context, id int64, token string, a Attempt) error
}

// Delivery is one webhook post a seller owes: the task and the buyer it
// is for, the buyer's push_notification_config (where, how to sign) and
// the body, built once and posted as it is on every attempt.
type Delivery struct {
	// ID is the store's, set by Enqueue.
	ID        int64
	TaskID    string
	Principal string
	// Tool and Status are the task's tool and the status the body reports
	// (for logs and telemetry).
	Tool       string
	Status     string
	PushConfig []byte
	Body       []byte
	// CreatedAt is when it was enqueued (the store's clock); Deadline is
	// when it is given up if still undelivered (the retry horizon).
	CreatedAt time.Time
	Deadline  time.Time
	// Attempts is how many posts were made so far.
	Attempts int
	// Token is the claim's (ClaimDue), for Settle.
	Token string
	// Trace is the trace context of the update that made the delivery, as
	// the seller's Observer injected it (propagation fields, query-encoded:
	// "traceparent=00-...-01"), so that its posts continue that trace on
	// whichever replica makes them; "" for none. It holds no credential.
	Trace string
}

// Attempt is the outcome of one post of a claimed delivery.
type Attempt struct {
	// Delivered: the receiver answered 2xx. Otherwise the delivery is
	// retried from RetryAt, unless GiveUp (a refusal no retry can change,
	// or the horizon passed).
	Delivered bool
	GiveUp    bool
	RetryAt   time.Time
	// Status is the receiver's HTTP status (0 for none) and Error why the
	// post failed, kept for the record.
	Status int
	Error  string
}

// ValidateNew reports what Enqueue cannot accept: an empty task id or
// principal, text no store can hold, no body or push config.
func (d Delivery) ValidateNew() error {
	for _, f := range [...]struct{ what, s string }{{"task id", d.TaskID}, {"principal", d.Principal}} {
		if err := storekit.CheckText(f.what, f.s, true); err != nil {
			return err
		}
	}
	for _, f := range [...]struct{ what, s string }{{"tool", d.Tool}, {"status", d.Status}, {"trace", d.Trace}} {
		if err := storekit.CheckText(f.what, f.s, false); err != nil {
			return err
		}
	}
	if len(d.Body) == 0 || len(d.PushConfig) == 0 {
		return fmt.Errorf("sellerstore: enqueue: a delivery without a body or push config: %w", ErrInvalid)
	}
	return nil
}

// outboxEntry is a delivery in Memory, with its claim and state.
type outboxEntry struct {
	d          Delivery
	nextAt     time.Time
	claimUntil time.Time
	done       bool // delivered or given up
	doneAt     time.Time
}

// Enqueue implements Outbox.
func (m *Memory) Enqueue(ctx context.Context, d Delivery) (Delivery, error) {
	if err := d.ValidateNew(); err != nil {
		return Delivery{}, err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextDelivery++
	d.ID, d.CreatedAt, d.Attempts, d.Token = m.nextDelivery, now, 0, ""
	d.Deadline = storekit.Timestamp(d.Deadline)
	d.PushConfig, d.Body = bytes.Clone(d.PushConfig), bytes.Clone(d.Body)
	m.outbox = append(m.outbox, &outboxEntry{d: d, nextAt: now})
	return d, nil
}

// ClaimDue implements Outbox.
func (m *Memory) ClaimDue(ctx context.Context, lease time.Duration, limit int) ([]Delivery, error) {
	if err := storekit.CheckLease(lease); err != nil {
		return nil, err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	blocked := map[string]bool{} // tasks with an earlier delivery pending
	var due []*outboxEntry
	for _, e := range m.outbox { // in enqueue order
		if e.done {
			continue
		}
		if !blocked[e.d.TaskID] && !now.Before(e.nextAt) && !now.Before(e.claimUntil) {
			due = append(due, e)
		}
		blocked[e.d.TaskID] = true
	}
	slices.SortStableFunc(due, func(a, b *outboxEntry) int { return a.nextAt.Compare(b.nextAt) })
	var out []Delivery
	for _, e := range due[:min(max(limit, 0), len(due))] {
		e.d.Token, e.claimUntil = storekit.NewToken(), now.Add(lease)
		d := e.d
		d.PushConfig, d.Body = bytes.Clone(d.PushConfig), bytes.Clone(d.Body)
		out = append(out, d)
	}
	return out, nil
}

// Settle implements Outbox.
func (m *Memory) Settle(ctx context.Context, id int64, token string, a Attempt) error {
	if err := storekit.CheckToken(token); err != nil {
		return err
	}
	now := storekit.Timestamp(m.clock.Now())
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.outbox, func(e *outboxEntry) bool { return e.d.ID == id })
	if i < 0 || m.outbox[i].done || m.outbox[i].d.Token != token {
		return fmt.Errorf("sellerstore: settle delivery %d: %w", id, ErrClaimLost)
	}
	e := m.outbox[i]
	e.d.Attempts++
	e.d.Token, e.claimUntil = "", time.Time{}
	switch {
	case a.Delivered || a.GiveUp:
		e.done, e.doneAt = true, now
	default:
		e.nextAt = storekit.Timestamp(a.RetryAt)
	}
	return nil
}

// purgeOutbox drops settled deliveries settled before cutoff; m.mu is
// held.
func (m *Memory) purgeOutbox(cutoff time.Time) int {
	n := len(m.outbox)
	m.outbox = slices.DeleteFunc(m.outbox, func(e *outboxEntry) bool { return e.done && e.doneAt.Before(cutoff) })
	return n - len(m.outbox)
}
