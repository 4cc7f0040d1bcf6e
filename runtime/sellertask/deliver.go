package sellertask

import (
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// deliver posts one update of t to the buyer's webhook in the background.
// Updates of one task are posted in the order they were recorded: each
// delivery waits for the one before it (AdCP webhooks report status
// changes, and a buyer must not see completed before working).
func (m *Manager) deliver(t sellerstore.Task, a *seller.Answer, status task.Status) {
	cfg, err := webhook.ParsePushConfig(t.PushConfig)
	if err != nil { // Start checked it
		m.log.Error("adcp: task webhook not sent", "task", t.ID, "err", err.Error())
		return
	}
	result := []byte(a.Body)
	if a.Error != nil {
		if result, err = seller.ErrorObject(a); err != nil {
			m.log.Error("adcp: task webhook not sent", "task", t.ID, "err", err.Error())
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
	body, err := webhook.MCPPayload{
		IdempotencyKey: webhook.NewEventKey(),
		OperationID:    operation,
		TaskID:         t.ID,
		TaskType:       t.Tool,
		Protocol:       protocol,
		Status:         status,
		Timestamp:      m.now(),
		Message:        a.Message,
		Token:          cfg.Token,
		Result:         result,
	}.Encode()
	if err != nil {
		m.log.Error("adcp: task webhook not sent", "task", t.ID, "err", err.Error())
		return
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		m.log.Error("adcp: task webhook not sent: the manager is closed", "task", t.ID, "status", string(status))
		return
	}
	prev := m.last[t.ID]
	done := make(chan struct{})
	m.last[t.ID] = done
	m.started()
	m.mu.Unlock()
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
		if err := m.sender.Send(m.ctx, webhook.Push{Config: cfg, Body: body}); err != nil {
			m.log.Error("adcp: task webhook not delivered", "task", t.ID, "status", string(status), "err", err.Error())
		}
	}()
}
