package sellertask

import (
	"context"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// NotifySyncResults is seller middleware that also posts a synchronous
// response to the webhook of the request's push_notification_config: the
// answer is recorded as a task completed at once (so the webhook's task_id
// reads back through the status tools) and posted like any task update,
// signed and retried. The buyer's answer is unchanged.
//
// It acts on mutating tools only, get_products excepted (3.2 marks it
// mutating for its proposals, but a guaranteed-sync read stays silent). It
// checks the push_notification_config before the handler runs, as Start
// does for a task: a URL the Sender refuses is a correctable
// INVALID_REQUEST, with no side effect. Put it after the idempotency
// layer's middleware (runtime/idempotency), so that a replayed answer is
// not posted again.
//
// Deprecated: webhooks.mdx ("When webhooks fire") says a seller MUST NOT
// post a task webhook for an inline terminal response: webhooks report a
// task whose first answer was submitted or working. This middleware serves
// only buyers written against the 3.0-era reference SDKs, which posted
// one by default until @adcp/sdk 13; a conformant seller leaves it out.
func (m *Manager) NotifySyncResults() seller.Middleware {
	return func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			if m.sender == nil || !c.Tool.Mutating || c.Tool.Name == syncRead || !wire.Lenient(c.Member("push_notification_config")).IsObject() {
				return next(ctx, c)
			}
			if e := m.checkPushConfig(c); e != nil {
				return seller.ErrorAnswer(e)
			}
			a := next(ctx, c)
			if a == nil || a.Error != nil || a.Replayed || a.TaskID != "" || len(a.Body) == 0 ||
				(a.Status != "" && a.Status != task.Completed) {
				return a
			}
			m.notify(ctx, c, a)
			return a
		}
	}
}

// syncRead is the tool whose synchronous answers NotifySyncResults never
// posts, whatever the release says of it.
const syncRead = "get_products"

// notify records a synchronous answer as a completed task and posts it.
func (m *Manager) notify(ctx context.Context, c *seller.Call, a *seller.Answer) {
	ctx = context.WithoutCancel(ctx) // the buyer has its answer; the record and post go on
	id, err := m.Start(ctx, c)
	if err != nil {
		m.log.Error("adcp: synchronous result not posted", "tool", c.Tool.Name, "err", err.Error())
		return
	}
	done := *a
	done.Status, done.TaskID = task.Completed, id
	if err := m.Update(ctx, seller.TaskEvent{ID: id, Principal: c.Principal.ID, Tool: c.Tool.Name, Answer: &done}); err != nil {
		m.log.Error("adcp: synchronous result not posted", "tool", c.Tool.Name, "task", id, "err", err.Error())
	}
}

// checkPushConfig refuses a push_notification_config the Sender could
// never deliver to (an internal or non-https URL, a weak HMAC secret): a
// correctable INVALID_REQUEST naming the field.
func (m *Manager) checkPushConfig(c *seller.Call) *adcperr.Error {
	cfg, err := webhook.ParsePushConfig(c.Member("push_notification_config"))
	if err == nil && m.sender != nil {
		err = m.sender.Check(cfg)
	}
	if err == nil {
		return nil
	}
	e := &adcperr.Error{Code: m.pick("INVALID_REQUEST"), Message: "push_notification_config cannot be used: " + err.Error(), Field: "push_notification_config.url"}
	e.Recovery, _ = m.spec.Recovery(e.Code)
	return e
}
