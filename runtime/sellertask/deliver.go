package sellertask

import (
	"context"
	"errors"
	"time"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// deliver posts one update of t to the buyer's webhook in the background.
// Updates of one task are posted in the order they were recorded: each
// delivery waits for the one before it (AdCP webhooks report status
// changes, and a buyer must not see completed before working).
func (m *Manager) deliver(ctx context.Context, t sellerstore.Task, a *seller.Answer, status task.Status) {
	cfg, err := webhook.ParsePushConfig(t.PushConfig)
	if err != nil { // Start checked it
		m.log.ErrorContext(ctx, "adcp: task webhook not sent", "task", t.ID, "err", err.Error())
		return
	}
	result := []byte(a.Body)
	if a.Error != nil {
		if result, err = seller.ErrorObject(a); err != nil {
			m.log.ErrorContext(ctx, "adcp: task webhook not sent", "task", t.ID, "err", err.Error())
			return
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
	made := m.now()
	body, err := webhook.MCPPayload{
		IdempotencyKey: webhook.NewEventKey(),
		OperationID:    operation,
		TaskID:         t.ID,
		TaskType:       t.Tool,
		Protocol:       protocol,
		Status:         status,
		Timestamp:      made,
		Message:        a.Message,
		Token:          cfg.Token,
		Result:         result,
	}.Encode()
	if err != nil {
		m.log.ErrorContext(ctx, "adcp: task webhook not sent", "task", t.ID, "err", err.Error())
		return
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		m.log.ErrorContext(ctx, "adcp: task webhook not sent: the manager is closed", "task", t.ID, "status", string(status))
		return
	}
	prev := m.last[t.ID]
	done := make(chan struct{})
	m.last[t.ID] = done
	m.started()
	m.mu.Unlock()
	dctx, delivered := m.deliveryContext(ctx, t, status, made)
	go func() {
		defer func() {
			close(done)
			m.mu.Lock()
			if m.last[t.ID] == done {
				delete(m.last, t.ID)
			}
			m.finished()
			m.mu.Unlock()
		}()
		if prev != nil {
			<-prev
		}
		err := m.sender.Send(dctx, webhook.Push{Config: cfg, Body: body})
		delivered(err)
		if err != nil {
			m.log.ErrorContext(dctx, "adcp: task webhook not delivered", "task", t.ID, "status", string(status), "err", err.Error())
		}
	}()
}

// deliveryContext is the context a delivery runs in, and the function
// called with its result. Unobserved, it is the Manager's, which Close
// cancels. Observed, it also keeps the values of the update's ctx (its
// trace) without its cancellation or deadline, and the delivery is a
// DeliverWebhook operation.
func (m *Manager) deliveryContext(ctx context.Context, t sellerstore.Task, status task.Status, made time.Time) (context.Context, func(error)) {
	if m.obs == nil {
		return m.ctx, func(error) {}
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(m.ctx, cancel)
	op := &observe.Op{Kind: observe.DeliverWebhook, Tool: t.Tool, TaskID: t.ID, Status: string(status), Since: made}
	ctx, end := m.obs.Start(ctx, op)
	return ctx, func(err error) {
		op.Outcome, op.Err = "delivered", err
		var de *webhook.DeliveryError
		switch {
		case errors.As(err, &de):
			op.Outcome, op.Attempts, op.HTTPStatus = "failed", de.Attempts, de.Status
		case err != nil:
			op.Outcome = "failed"
		}
		end()
		stop()
		cancel()
	}
}
