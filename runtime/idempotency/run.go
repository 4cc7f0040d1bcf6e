package idempotency

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// hold is a claim the call holds while its handler runs and its answer is
// recorded.
type hold struct {
	req   sellerstore.ClaimRequest
	token string
	beat  *heartbeat
}

// run calls the handler holding the claim, then records a success (and
// only then sends it) or releases the key.
func (l *Layer) run(ctx context.Context, c *seller.Call, req sellerstore.ClaimRequest, token string, next seller.Dispatch) *seller.Answer {
	hctx, cancel := context.WithTimeout(ctx, l.opts.HandlerTimeout)
	defer cancel()
	h := &hold{req: req, token: token}
	// The claim is renewed while the handler runs and its answer is
	// recorded, never past the in-flight bound; a claim found lost stops
	// the handler, whose work could not be recorded.
	h.beat = l.renew(ctx, req.IdempotencyKey, token, l.opts.HandlerTimeout+l.opts.CompleteWait, cancel)
	defer h.beat.stop()
	var unit sellerstore.Unit
	if l.atomic != nil {
		hctx, unit = l.atomic.Begin(hctx)
	}
	a, p := call(hctx, c, next)
	if p != nil || a == nil || !cacheable(a) {
		// Errors are not cached: the buyer may retry the same key, and the
		// unit's writes (a task started before the failure) are dropped.
		if unit != nil {
			rctx, rcancel := storeContext(hctx)
			unit.Rollback(rctx)
			rcancel()
		}
		h.beat.stop()
		l.release(ctx, req.IdempotencyKey, token)
		if p != nil {
			panic(p) // the server answers a panic; the key is free again
		}
		return a
	}
	a = l.echoKey(c, a, req.Key)
	resp := stored(c, a)
	if unit != nil {
		return l.commit(hctx, c, h, unit, a, resp)
	}
	return l.complete(ctx, c, h, a, resp)
}

// call runs the handler, catching a panic.
func call(ctx context.Context, c *seller.Call, next seller.Dispatch) (a *seller.Answer, p any) {
	defer func() { p = recover() }()
	return next(ctx, c), nil
}

// commit completes the record in the handler's unit of work and commits
// it: the answer is sent only when the commit succeeded. A lost claim
// (the lease lapsed and another call took the key over) rolls the unit
// back; a commit whose outcome is unknown is read back.
func (l *Layer) commit(hctx context.Context, c *seller.Call, h *hold, unit sellerstore.Unit, a *seller.Answer, resp sellerstore.StoredResponse) *seller.Answer {
	sctx, cancel := storeContext(hctx) // carries the unit
	defer cancel()
	err := l.store.Complete(sctx, h.req.IdempotencyKey, h.token, resp)
	if err == nil {
		err = unit.Commit(sctx)
	} else {
		unit.Rollback(sctx)
	}
	h.beat.stop()
	if err == nil {
		return a
	}
	if errors.Is(err, sellerstore.ErrClaimLost) {
		l.log.WarnContext(hctx, "adcp: idempotency claim taken over while the handler ran; its work was rolled back", "tool", h.req.Tool)
	}
	return l.resolve(hctx, c, h, a, resp, err)
}

// resolve finds out, after a completion that failed, whether this call's
// answer was recorded, reading the record back (a Claim with the same
// fingerprint) while the store comes back, up to CompleteWait:
//
//   - replayed with this call's answer: it was recorded, send it;
//   - replayed with another: another call took the key over and finished
//     it, send that one (the buyer's key has one answer);
//   - held, or free again: nothing of this call was kept; the key is
//     released so that a retry runs the handler again at once, and the
//     buyer gets a transient error.
func (l *Layer) resolve(ctx context.Context, c *seller.Call, h *hold, a *seller.Answer, resp sellerstore.StoredResponse, cause error) *seller.Answer {
	deadline := time.Now().Add(l.opts.CompleteWait)
	wait := 100 * time.Millisecond
	for {
		claim, err := l.claim(ctx, h.req)
		switch {
		case err != nil:
			cause = err
		case claim.Outcome == sellerstore.Replay:
			if claim.Response.TaskID == resp.TaskID && bytes.Equal(claim.Response.Body, resp.Body) {
				return a
			}
			return l.answer(ctx, c, claim)
		case claim.Outcome == sellerstore.Claimed: // the lease lapsed: ours, never completed
			l.release(ctx, h.req.IdempotencyKey, claim.Token)
			return l.unavailable(ctx, c, "complete", cause)
		case claim.Outcome == sellerstore.InFlight:
			if l.release(ctx, h.req.IdempotencyKey, h.token) {
				return l.unavailable(ctx, c, "complete", cause)
			}
			return l.answer(ctx, c, claim) // another call holds the key now
		default:
			return l.unavailable(ctx, c, "complete", cause)
		}
		if time.Now().Add(wait).After(deadline) {
			return l.unavailable(ctx, c, "complete", cause)
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Second)
	}
}

// complete records the answer in a store that is not Atomic, retrying
// while the store is away (the claim renewed meanwhile) up to
// CompleteWait; then the buyer gets a transient error and the completion
// goes on in the background, so that a retry replays the answer once the
// store is back. The handler's own writes were made already: a claim lost
// meanwhile (the store away longer than the lease, and a retry took the
// key over) means they may be made twice, which only an Atomic store
// prevents.
func (l *Layer) complete(ctx context.Context, c *seller.Call, h *hold, a *seller.Answer, resp sellerstore.StoredResponse) *seller.Answer {
	deadline := time.Now().Add(l.opts.CompleteWait)
	wait := 100 * time.Millisecond
	for {
		err := l.completeOnce(ctx, h, resp)
		switch {
		case err == nil:
			return a
		case errors.Is(err, sellerstore.ErrClaimLost):
			h.beat.stop()
			l.log.ErrorContext(ctx, "adcp: idempotency claim taken over before the answer was recorded; the handler's work may have been done twice", "tool", h.req.Tool)
			if claim, cerr := l.claim(ctx, h.req); cerr == nil && claim.Outcome != sellerstore.Claimed {
				return l.answer(ctx, c, claim)
			} else if cerr == nil {
				l.release(ctx, h.req.IdempotencyKey, claim.Token)
			}
			return l.unavailable(ctx, c, "complete", err)
		case time.Now().Add(wait).After(deadline):
			h.beat.stop()
			go l.completeLater(context.WithoutCancel(ctx), h, resp)
			return l.unavailable(ctx, c, "complete", err)
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Second)
	}
}

func (l *Layer) completeOnce(ctx context.Context, h *hold, resp sellerstore.StoredResponse) error {
	sctx, cancel := storeContext(ctx)
	defer cancel()
	return l.store.Complete(sctx, h.req.IdempotencyKey, h.token, resp)
}

// completeLater keeps trying to record an answer the buyer was told to
// retry for, until it is recorded, the claim is lost, or the replay window
// has passed.
func (l *Layer) completeLater(ctx context.Context, h *hold, resp sellerstore.StoredResponse) {
	end := time.Now().Add(l.opts.Retention)
	wait := time.Second
	for time.Now().Before(end) {
		time.Sleep(wait)
		err := l.completeOnce(ctx, h, resp)
		switch {
		case err == nil:
			l.log.InfoContext(ctx, "adcp: idempotency record completed after the store came back", "tool", h.req.Tool)
			return
		case errors.Is(err, sellerstore.ErrClaimLost):
			l.log.ErrorContext(ctx, "adcp: idempotency claim taken over before the answer was recorded; the handler's work may have been done twice", "tool", h.req.Tool)
			return
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// release gives the key back after a failure; it reports whether token
// held it.
func (l *Layer) release(ctx context.Context, key sellerstore.IdempotencyKey, token string) bool {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	err := l.store.Release(ctx, key, token)
	if err != nil && !errors.Is(err, sellerstore.ErrClaimLost) {
		l.log.ErrorContext(ctx, "adcp: idempotency claim not released; the key stays in flight until its lease ends", "tool", key.Tool, "err", err.Error())
	}
	return err == nil
}

// heartbeat renews a claim's lease until stopped.
type heartbeat struct {
	done     chan struct{}
	finished chan struct{}
	once     sync.Once
}

// renew keeps token's lease alive every third of a lease, for at most
// bound; lost is called when the claim turns out lost (taken over).
func (l *Layer) renew(ctx context.Context, key sellerstore.IdempotencyKey, token string, bound time.Duration, lost func()) *heartbeat {
	hb := &heartbeat{done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(hb.finished)
		t := time.NewTicker(l.opts.Lease / 3)
		defer t.Stop()
		end := time.NewTimer(bound)
		defer end.Stop()
		for {
			select {
			case <-hb.done:
				return
			case <-end.C:
				return // rule 9: the key may not stay in flight longer
			case <-t.C:
			}
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.opts.Lease/3)
			err := l.store.Renew(rctx, key, token, l.opts.Lease)
			cancel()
			switch {
			case errors.Is(err, sellerstore.ErrClaimLost):
				l.log.ErrorContext(ctx, "adcp: idempotency claim lost while the handler ran", "tool", key.Tool)
				lost()
				return
			case err != nil:
				l.log.WarnContext(ctx, "adcp: idempotency lease not renewed", "tool", key.Tool, "err", err.Error())
			}
		}
	}()
	return hb
}

func (hb *heartbeat) stop() {
	hb.once.Do(func() { close(hb.done) })
	<-hb.finished
}
