package idempotency

import (
	"context"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// opKey carries the ApplyIdempotency Op of a call, for serve to note the
// claim's outcome on.
type opKey struct{}

// observed runs serve as the call's ApplyIdempotency operation when the
// layer has an Observer; outcome, when set, is the outcome already known.
func (l *Layer) observed(ctx context.Context, c *seller.Call, outcome string, serve func(context.Context) *seller.Answer) *seller.Answer {
	if l.opts.Observer == nil {
		return serve(ctx)
	}
	op := &observe.Op{Kind: observe.ApplyIdempotency, Tool: c.Tool.Name, Outcome: outcome}
	ctx, end := l.opts.Observer.Start(ctx, op)
	ctx = context.WithValue(ctx, opKey{}, op)
	var a *seller.Answer
	defer func() {
		// A handler's panic ends the operation too; the server answers it.
		if a != nil {
			op.Status, op.Replayed = string(a.Status), a.Replayed
			if a.Error != nil {
				op.Code, op.Recovery = a.Error.Code, string(a.Error.Recovery)
			}
		}
		end()
	}()
	a = serve(ctx)
	return a
}

// noteOutcome records the claim's outcome on the call's Op, if observed.
func noteOutcome(ctx context.Context, outcome string) {
	if op, ok := ctx.Value(opKey{}).(*observe.Op); ok {
		op.Outcome = outcome
	}
}

// outcomeName is a claim outcome as telemetry names it ("in_flight").
func outcomeName(o sellerstore.Outcome) string {
	return strings.ReplaceAll(o.String(), "-", "_")
}

// observedStore reports each call of the store to an Observer as a
// CallStore operation. Methods a store adds beyond IdempotencyStore pass
// through unobserved.
type observedStore struct {
	sellerstore.IdempotencyStore
	obs observe.Observer
}

func (s observedStore) call(ctx context.Context, name string) (context.Context, *observe.Op, func()) {
	op := &observe.Op{Kind: observe.CallStore, Operation: name}
	ctx, end := s.obs.Start(ctx, op)
	return ctx, op, end
}

func (s observedStore) Claim(ctx context.Context, req sellerstore.ClaimRequest) (sellerstore.Claim, error) {
	ctx, op, end := s.call(ctx, "claim")
	c, err := s.IdempotencyStore.Claim(ctx, req)
	op.Outcome, op.Err = outcomeName(c.Outcome), err
	end()
	return c, err
}

func (s observedStore) Renew(ctx context.Context, key sellerstore.IdempotencyKey, token string, lease time.Duration) error {
	ctx, op, end := s.call(ctx, "renew")
	op.Err = s.IdempotencyStore.Renew(ctx, key, token, lease)
	end()
	return op.Err
}

func (s observedStore) Complete(ctx context.Context, key sellerstore.IdempotencyKey, token string, resp sellerstore.StoredResponse) error {
	ctx, op, end := s.call(ctx, "complete")
	op.Err = s.IdempotencyStore.Complete(ctx, key, token, resp)
	end()
	return op.Err
}

func (s observedStore) Release(ctx context.Context, key sellerstore.IdempotencyKey, token string) error {
	ctx, op, end := s.call(ctx, "release")
	op.Err = s.IdempotencyStore.Release(ctx, key, token)
	end()
	return op.Err
}
