package sellertask

import (
	"context"
	"errors"
	"net/url"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// Webhooks go through the store's outbox (sellerstore.Outbox): an update's
// notification is written with the update, in its unit of work, and the
// dispatcher of whichever replica claims it posts it, one attempt at a
// time, on the Sender's schedule (NextAttempt) until it is delivered, the
// receiver refuses it for good, or its horizon passes. Notifications of
// one task are posted in the order they were recorded (AdCP webhooks
// report status changes: a buyer must not see completed before working).
// A store without an outbox gets an in-memory one: the same contract in
// one process.

// maxPosts bounds the posts one Manager makes at once.
const maxPosts = 8

// notification is the webhook of one update of t: the MCP payload, built
// once (its idempotency_key and timestamp stay the same on every
// attempt, on every replica).
func (m *Manager) notification(t sellerstore.Task, a *seller.Answer, status task.Status) (sellerstore.Delivery, error) {
	cfg, err := webhook.ParsePushConfig(t.PushConfig)
	if err != nil { // Start checked it
		return sellerstore.Delivery{}, err
	}
	result := []byte(a.Body)
	if a.Error != nil {
		if result, err = seller.ErrorObject(a); err != nil {
			return sellerstore.Delivery{}, err
		}
	}
	operation := cfg.OperationID
	if operation == "" {
		// AdCP 3.1 requires operation_id in every payload; a buyer that
		// registered none gets the task id, never anything read from its URL.
		operation = t.ID
	}
	protocol := ""
	if tool, ok := m.spec.Tool(t.Tool); ok {
		protocol = tool.Protocol
	}
	now := m.now()
	body, err := webhook.MCPPayload{
		IdempotencyKey: webhook.NewEventKey(),
		OperationID:    operation,
		TaskID:         t.ID,
		TaskType:       t.Tool,
		Protocol:       protocol,
		Status:         status,
		Timestamp:      now,
		Message:        a.Message,
		Token:          cfg.Token,
		Result:         result,
	}.Encode()
	if err != nil {
		return sellerstore.Delivery{}, err
	}
	return sellerstore.Delivery{TaskID: t.ID, Principal: t.Principal, Tool: t.Tool, Status: string(status),
		PushConfig: t.PushConfig, Body: body, Deadline: now.Add(m.sender.Horizon())}, nil
}

// enqueue writes the notification of an update in ctx's unit of work; once
// the unit commits this Manager owes it (Wait) and the dispatcher runs.
func (m *Manager) enqueue(ctx context.Context, t sellerstore.Task, a *seller.Answer, status task.Status) (err error) {
	d, err := m.notification(t, a, status)
	if err != nil {
		m.log.ErrorContext(ctx, "adcp: task webhook not sent", "task", t.ID, "err", err.Error())
		return nil // the update stands; its webhook cannot be made
	}
	if m.obs != nil {
		op := &observe.Op{Kind: observe.EnqueueWebhook, Tool: t.Tool, TaskID: t.ID, Status: string(status)}
		var end func()
		ctx, end = m.obs.Start(ctx, op)
		defer func() { op.Err = err; end() }()
		// The posts, on whichever replica, continue this trace.
		trace := url.Values{}
		m.obs.Inject(ctx, trace.Set)
		d.Trace = trace.Encode()
	}
	if d, err = m.outbox.Enqueue(ctx, d); err != nil {
		return err
	}
	sellerstore.AfterCommit(ctx, func() {
		m.mu.Lock()
		if !m.closed {
			m.owe(d.ID)
		}
		m.mu.Unlock()
		m.kickDispatch()
	})
	return nil
}

// owe and settled track the deliveries this Manager enqueued and has not
// seen settled, for Wait; m.mu is held.
func (m *Manager) owe(id int64) {
	if len(m.owed) == 0 {
		m.idle = make(chan struct{})
	}
	m.owed[id] = true
}

func (m *Manager) settled(id int64) {
	if !m.owed[id] {
		return
	}
	delete(m.owed, id)
	if len(m.owed) == 0 {
		close(m.idle)
	}
}

func (m *Manager) kickDispatch() {
	select {
	case m.dispatchKick <- struct{}{}:
	default:
	}
}

// deliveryLease is how long a post in progress holds its delivery: a
// replica killed mid-post leaves it to another once this passes.
func (m *Manager) deliveryLease() time.Duration { return 3 * m.lease }

// dispatch claims due deliveries and posts them until the Manager closes:
// when kicked (a notification was recorded or settled here) and every
// second (retries come due; another replica's dead claims lapse).
func (m *Manager) dispatch() {
	defer m.dispatching.Done()
	slots := make(chan struct{}, maxPosts)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var posts sync.WaitGroup
	defer posts.Wait()
	for {
		select {
		case <-m.stopDispatch:
			return
		case <-tick.C:
		case <-m.dispatchKick:
		}
		free := maxPosts - len(slots)
		if free == 0 {
			continue
		}
		due, err := m.outbox.ClaimDue(m.ctx, m.deliveryLease(), free)
		if err != nil {
			if m.ctx.Err() == nil {
				m.log.WarnContext(m.ctx, "adcp: webhook outbox not read", "err", err.Error())
			}
			continue
		}
		for _, d := range due {
			slots <- struct{}{}
			posts.Add(1)
			go func() {
				defer func() { <-slots; posts.Done() }()
				m.post(d)
			}()
		}
	}
}

// post makes one attempt at d and records its outcome.
func (m *Manager) post(d sellerstore.Delivery) {
	ctx, delivered := m.deliveryContext(d)
	a := sellerstore.Attempt{}
	cfg, err := webhook.ParsePushConfig(d.PushConfig)
	var derr *webhook.DeliveryError
	if err != nil {
		a.GiveUp, a.Error = true, err.Error()
	} else if derr = m.sender.Attempt(ctx, webhook.Push{Config: cfg, Body: d.Body, Attempt: d.Attempts + 1}); derr == nil {
		a.Delivered = true
	} else {
		a.Status, a.Error = derr.Status, derr.Error()
		// The schedule is on the store's clock (Options.Now), as d's
		// CreatedAt and the due times ClaimDue compares are: a clock set
		// apart from the wall's (a sandbox on a runner's dates) must not
		// read as an outage months long.
		now := m.now()
		if derr.Permanent {
			a.GiveUp = true
		} else if next, ok := m.sender.NextAttempt(d.CreatedAt, now, d.Attempts+1, derr.RetryAfter); ok && m.ctx.Err() == nil {
			a.RetryAt = next
		} else if ok { // closing: retried at once by the next dispatcher
			a.RetryAt = now
		} else {
			a.GiveUp = true
		}
	}
	delivered(a, derr)
	switch {
	case a.Delivered:
	case a.GiveUp:
		m.log.ErrorContext(ctx, "adcp: task webhook given up", "task", d.TaskID, "status", d.Status, "attempts", d.Attempts+1, "err", a.Error)
	default:
		m.log.WarnContext(ctx, "adcp: task webhook not delivered yet", "task", d.TaskID, "status", d.Status, "attempts", d.Attempts+1,
			"retry_at", a.RetryAt.UTC().Format(time.RFC3339), "err", a.Error)
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := m.outbox.Settle(sctx, d.ID, d.Token, a); err != nil {
		// The claim lapsed (the post outlived it) or the store is away: the
		// delivery is claimed again and posted again, with the same key.
		m.log.WarnContext(ctx, "adcp: task webhook outcome not recorded", "task", d.TaskID, "err", err.Error())
		return
	}
	if a.Delivered || a.GiveUp {
		m.mu.Lock()
		m.settled(d.ID)
		m.mu.Unlock()
		m.kickDispatch() // the task's next notification may be due
	} else if wait := a.RetryAt.Sub(m.now()); wait < time.Second && m.ctx.Err() == nil {
		// Sooner than the next tick; never once closing, when no
		// dispatcher is left to kick (the next one takes it at once).
		time.AfterFunc(wait, m.kickDispatch)
	}
}

// deliveryContext is the context an attempt at d runs in, and the
// function called with its outcome. Unobserved, it is the Manager's, which
// Close cancels. Observed, the attempt is a DeliverWebhook operation that
// continues the trace of the update that made d (d.Trace).
func (m *Manager) deliveryContext(d sellerstore.Delivery) (context.Context, func(sellerstore.Attempt, *webhook.DeliveryError)) {
	if m.obs == nil {
		return m.ctx, func(sellerstore.Attempt, *webhook.DeliveryError) {}
	}
	op := &observe.Op{Kind: observe.DeliverWebhook, Tool: d.Tool, TaskID: d.TaskID, Status: d.Status, Since: d.CreatedAt, Attempts: d.Attempts + 1}
	if v, err := url.ParseQuery(d.Trace); err == nil && len(v) > 0 {
		meta := make(map[string]any, len(v))
		for k := range v {
			meta[k] = v.Get(k)
		}
		op.Peer = observe.PeerOf(meta, nil)
	}
	ctx, end := m.obs.Start(m.ctx, op)
	return ctx, func(a sellerstore.Attempt, derr *webhook.DeliveryError) {
		switch {
		case a.Delivered:
			op.Outcome = "delivered"
		case a.GiveUp:
			op.Outcome = "failed"
		default:
			op.Outcome = "retrying"
		}
		op.HTTPStatus = a.Status
		if derr != nil {
			op.Err = derr
		} else if a.Error != "" {
			op.Err = errors.New("the push configuration cannot be read")
		}
		end()
	}
}
