package idempotency

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Defaults of Options.
const (
	// DefaultRetention is the replay window: AdCP recommends 86400 seconds
	// (and requires at least 3600).
	DefaultRetention = 24 * time.Hour
	// DefaultLease is how long a claim holds a key before another replica
	// may take it over; the layer renews it while the handler runs.
	DefaultLease = 2 * time.Minute
	// DefaultInFlightWait bounds wait-and-replay for versions without
	// IDEMPOTENCY_IN_FLIGHT.
	DefaultInFlightWait = 10 * time.Second
)

// DefaultExclude is what the fingerprint leaves out by default: the key
// itself, and what a buyer may change when it retries one request, as
// AdCP's exclusion list (and the JavaScript SDK's seller) has it: the
// context object (echoed, never acted on: a retry carries a new
// correlation id), governance_context (a refreshed signed token), and the
// credential of push_notification_config (rotated; its URL and schemes
// stay in).
func DefaultExclude() []string {
	return []string{"/idempotency_key", "/context", "/governance_context", "/push_notification_config/authentication/credentials"}
}

// AnonymousPrincipal scopes the records of calls made without credentials
// (a server without an Authenticator): all such callers share it.
const AnonymousPrincipal = "anonymous"

// Options configure a Layer. The zero value is AdCP's recommended
// setup.
type Options struct {
	// Retention is the replay window (get_adcp_capabilities'
	// replay_ttl_seconds), counted from the first completion; 0 means
	// DefaultRetention.
	Retention time.Duration
	// Lease is how long a claim holds a key without renewal; 0 means
	// DefaultLease. Keep it well above the clock skew between replicas.
	Lease time.Duration
	// InFlightWait is how long a call that finds its key still executing
	// waits for the first call's answer and replays it (AdCP's
	// wait-and-replay). 0 means: no wait when the version has
	// IDEMPOTENCY_IN_FLIGHT (the call is answered with it and a
	// retry_after), DefaultInFlightWait when it has not. After the wait, the
	// call gets IDEMPOTENCY_IN_FLIGHT, or CONFLICT (transient) in versions
	// without it.
	InFlightWait time.Duration
	// PollInterval is how often a waiting call looks again; 0 means 20 ms.
	PollInterval time.Duration
	// Exclude lists the request members left out of the fingerprint, as
	// JSON pointers (or bare top-level names; see sellerstore.Canonical);
	// nil means DefaultExclude.
	Exclude []string
	// Logger gets store failures and lost claims; nil discards.
	Logger *slog.Logger
	// NoKeyEcho leaves the request's idempotency_key out of stored
	// answers. By default a successful answer carries it (buyers and the
	// compliance storyboards read it back from the response) wherever the
	// payload's schema admits the member: with Validator set, an answer
	// the key would make invalid is stored without it.
	NoKeyEcho bool
	// Validator checks that an answer with the key echoed still matches
	// the version's schema for it (validate.New on the seller's schema
	// tree). nil echoes the key without checking, for servers that do not
	// validate their responses.
	Validator *validate.Validator
	// Observer is told of each call the layer acts on, with the claim's
	// outcome (replay, conflict, ...), and of each store call
	// (runtime/oteladcp makes spans and metrics of them). nil observes
	// nothing, at no cost.
	Observer observe.Observer
}

// Layer makes the mutating tools of a seller idempotent, as AdCP requires
// of tools whose idempotency_requirement is "required":
//
//   - a call without idempotency_key is refused (INVALID_REQUEST) before
//     the handler;
//   - the first call with a key runs the handler; a success (a response or
//     an interim answer with its task id) is stored, an error is not, so
//     the buyer may retry after it;
//   - the same key and the same canonical request replays the stored answer
//     byte for byte, marked replayed, with the new call's context echoed;
//   - the same key and another request is IDEMPOTENCY_CONFLICT, without
//     anything of the stored answer;
//   - a key still executing waits and replays, or is IDEMPOTENCY_IN_FLIGHT
//     (see Options.InFlightWait);
//   - a key past the replay window is IDEMPOTENCY_EXPIRED.
//
// Keys are scoped by the authenticated principal and the tool: one buyer
// cannot replay, or learn anything about, another's. Where the version
// lacks one of these codes the nearest one it has is used. The records live
// in a sellerstore.IdempotencyStore, so replicas sharing a database agree.
type Layer struct {
	spec  *registry.Spec
	store sellerstore.IdempotencyStore
	opts  Options
	log   *slog.Logger
}

// New returns the layer for a server of spec, keeping records in
// store.
func New(spec *registry.Spec, store sellerstore.IdempotencyStore, opts Options) *Layer {
	if opts.Retention <= 0 {
		opts.Retention = DefaultRetention
	}
	if opts.Lease <= 0 {
		opts.Lease = DefaultLease
	}
	if opts.InFlightWait <= 0 {
		if _, ok := spec.Recovery("IDEMPOTENCY_IN_FLIGHT"); !ok {
			opts.InFlightWait = DefaultInFlightWait
		}
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = 20 * time.Millisecond
	}
	if opts.Exclude == nil {
		opts.Exclude = DefaultExclude()
	}
	if opts.Observer != nil {
		store = observedStore{store, opts.Observer}
	}
	l := &Layer{spec: spec, store: store, opts: opts, log: opts.Logger}
	if l.log == nil {
		l.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return l
}

// Capabilities is the adcp.idempotency object of get_adcp_capabilities for
// this layer: {"supported":true,"replay_ttl_seconds":N}. Put it in
// seller.Options.Capabilities, under "adcp".
func (l *Layer) Capabilities() []byte {
	return []byte(`{"supported":true,"replay_ttl_seconds":` + strconv.FormatInt(int64(l.opts.Retention/time.Second), 10) + `}`)
}

// Middleware is the layer as seller middleware (seller.Options.Middleware).
// It acts on tools whose idempotency_requirement is required, and on other
// mutating tools when the call carries an idempotency_key.
func (l *Layer) Middleware() seller.Middleware {
	return func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			key, hasKey := c.StringMember("idempotency_key")
			switch {
			case c.Tool.IdempotencyRequired && (!hasKey || key == ""):
				e := l.newError(l.pick("INVALID_REQUEST"), "idempotency_key is required for "+c.Tool.Name+": send a fresh UUID v4 and reuse it on every retry")
				e.Field = "idempotency_key"
				return l.observed(ctx, c, "missing_key", func(context.Context) *seller.Answer { return seller.ErrorAnswer(e) })
			case !c.Tool.IdempotencyRequired && !(c.Tool.Mutating && hasKey && key != ""):
				return next(ctx, c)
			}
			return l.observed(ctx, c, "", func(ctx context.Context) *seller.Answer { return l.serve(ctx, c, key, next) })
		}
	}
}

func (l *Layer) serve(ctx context.Context, c *seller.Call, key string, next seller.Dispatch) *seller.Answer {
	canonical, err := c.Canonical(l.opts.Exclude...)
	if err != nil { // the server read the arguments strictly already
		return seller.ErrorAnswer(l.newError(l.pick("INVALID_REQUEST"), "The request is not canonical JSON"))
	}
	principal := c.Principal.ID
	if principal == "" {
		principal = AnonymousPrincipal
	}
	req := sellerstore.ClaimRequest{
		IdempotencyKey: sellerstore.IdempotencyKey{Principal: principal, Tool: c.Tool.Name, Key: key},
		Fingerprint:    sellerstore.Fingerprint(canonical),
		Lease:          l.opts.Lease,
		Retention:      l.opts.Retention,
	}
	if err := req.Validate(); err != nil {
		noteOutcome(ctx, "invalid_key")
		e := l.newError(l.pick("INVALID_REQUEST"), "idempotency_key is not a key this seller can store")
		e.Field = "idempotency_key"
		return seller.ErrorAnswer(e)
	}
	claim, err := l.claim(ctx, req)
	if err != nil {
		return l.unavailable(ctx, c, "claim", err)
	}
	if claim.Outcome == sellerstore.InFlight && l.opts.InFlightWait > 0 {
		if claim, err = l.wait(ctx, req); err != nil {
			return l.unavailable(ctx, c, "claim", err)
		}
	}
	noteOutcome(ctx, outcomeName(claim.Outcome))
	switch claim.Outcome {
	case sellerstore.Claimed:
		return l.run(ctx, c, req.IdempotencyKey, claim.Token, next)
	case sellerstore.Replay:
		r := claim.Response
		return &seller.Answer{Status: task.Status(r.Status), TaskID: r.TaskID, Body: r.Body, Replayed: true}
	case sellerstore.Conflict:
		return seller.ErrorAnswer(l.conflict())
	case sellerstore.InFlight:
		e := l.newError(l.pick("IDEMPOTENCY_IN_FLIGHT", "CONFLICT", "SERVICE_UNAVAILABLE"),
			"A request with this idempotency_key is still being processed; retry with the same key")
		e.RetryAfter = time.Second
		return seller.ErrorAnswer(e)
	case sellerstore.Expired:
		return seller.ErrorAnswer(l.newError(l.pick("IDEMPOTENCY_EXPIRED", "IDEMPOTENCY_CONFLICT", "INVALID_REQUEST"),
			"This idempotency_key is past the replay window; if the first request's outcome is unknown, look it up before sending a new request with a fresh key"))
	}
	return l.unavailable(ctx, c, "claim", fmt.Errorf("unknown outcome %v", claim.Outcome))
}

// claim runs Claim with a context the buyer's disconnect does not cancel,
// so a record is never left half-written.
func (l *Layer) claim(ctx context.Context, req sellerstore.ClaimRequest) (sellerstore.Claim, error) {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	return l.store.Claim(ctx, req)
}

// wait polls until the key stops being in flight or InFlightWait passes.
func (l *Layer) wait(ctx context.Context, req sellerstore.ClaimRequest) (sellerstore.Claim, error) {
	deadline := time.NewTimer(l.opts.InFlightWait)
	defer deadline.Stop()
	tick := time.NewTicker(l.opts.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return sellerstore.Claim{Outcome: sellerstore.InFlight}, nil
		case <-deadline.C:
			return sellerstore.Claim{Outcome: sellerstore.InFlight}, nil
		case <-tick.C:
		}
		claim, err := l.claim(ctx, req)
		if err != nil || claim.Outcome != sellerstore.InFlight {
			return claim, err
		}
	}
}

// run calls the handler holding the claim, renewing its lease while it
// runs, then stores a success or releases the key.
func (l *Layer) run(ctx context.Context, c *seller.Call, key sellerstore.IdempotencyKey, token string, next seller.Dispatch) (a *seller.Answer) {
	stop := l.renew(ctx, key, token)
	defer func() {
		stop()
		p := recover()
		if p != nil || a == nil || !cacheable(a) {
			// Errors are not cached: the buyer may retry the same key.
			l.release(ctx, key, token)
		} else {
			a = l.echoKey(c, a, key.Key)
			l.complete(ctx, c, key, token, a)
		}
		if p != nil {
			panic(p) // the server answers a panic; the key is free again
		}
	}()
	return next(ctx, c)
}

// cacheable: only successes are stored (a response, or an interim answer
// with its task); errors and responses reporting failure are not, so a
// buyer's retry after the failure runs the handler again.
func cacheable(a *seller.Answer) bool {
	if a.Error != nil || len(a.Body) == 0 {
		return false
	}
	return a.Status == "" || a.Status == task.Completed || a.Status.Interim()
}

// echoKey returns a with the request's idempotency_key among the body's
// members, when the layer echoes keys and the body stays valid.
func (l *Layer) echoKey(c *seller.Call, a *seller.Answer, key string) *seller.Answer {
	if l.opts.NoKeyEcho || wire.Lenient(a.Body).Get("idempotency_key").Present() {
		return a
	}
	body, ok := wire.Lenient(a.Body).WithMember("idempotency_key", wire.AppendQuoted(nil, key))
	if !ok {
		return a
	}
	if v := l.opts.Validator; v != nil {
		schema := c.Tool.ResponseSchema
		if a.Status.Interim() {
			as, ok := c.Tool.AsyncFor(string(a.Status))
			if !ok {
				return a
			}
			schema = as.Schema
		}
		if schema == "" {
			return a
		}
		if issues, err := v.Validate(schema, body); err != nil || len(issues) > 0 {
			return a
		}
	}
	out := *a
	out.Body = body
	return &out
}

func (l *Layer) complete(ctx context.Context, c *seller.Call, key sellerstore.IdempotencyKey, token string, a *seller.Answer) {
	status := a.Status
	if status == "" {
		status = task.Completed
	}
	ctx, cancel := storeContext(ctx)
	defer cancel()
	// The stored body leaves out the request's context, and the
	// envelope's conversation id where the schema has one: a replay echoes
	// those of the call it answers. Everything else, the envelope's status,
	// task_id and message included, is replayed byte for byte.
	body, ok := wire.Lenient(a.Body).WithoutMember("context")
	if !ok {
		body = a.Body
	}
	if c.Tool.EnvelopeFor(string(status)).Owns(registry.MemberContextID, "") {
		if out, ok := wire.Lenient(body).WithoutMember(registry.MemberContextID); ok {
			body = out
		}
	}
	err := l.store.Complete(ctx, key, token, sellerstore.StoredResponse{Body: body, Status: string(status), TaskID: a.TaskID})
	if err != nil {
		l.log.ErrorContext(ctx, "adcp: idempotency record not completed; a retry will run the handler again", "tool", key.Tool, "err", err.Error())
	}
}

func (l *Layer) release(ctx context.Context, key sellerstore.IdempotencyKey, token string) {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	if err := l.store.Release(ctx, key, token); err != nil && !errors.Is(err, sellerstore.ErrClaimLost) {
		l.log.ErrorContext(ctx, "adcp: idempotency claim not released; the key stays in flight until its lease ends", "tool", key.Tool, "err", err.Error())
	}
}

// renew keeps the lease alive while the handler runs; the returned stop
// ends it.
func (l *Layer) renew(ctx context.Context, key sellerstore.IdempotencyKey, token string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(l.opts.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				rctx, cancel := storeContext(ctx)
				err := l.store.Renew(rctx, key, token, l.opts.Lease)
				cancel()
				if err != nil {
					l.log.ErrorContext(ctx, "adcp: idempotency lease not renewed", "tool", key.Tool, "err", err.Error())
					if errors.Is(err, sellerstore.ErrClaimLost) {
						return
					}
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// storeContext is ctx without its cancellation, bounded: store writes
// finish even when the buyer has gone.
func storeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
}

func (l *Layer) unavailable(ctx context.Context, c *seller.Call, op string, err error) *seller.Answer {
	noteOutcome(ctx, "unavailable")
	l.log.ErrorContext(ctx, "adcp: idempotency store failed", "op", op, "tool", c.Tool.Name, "err", err.Error())
	e := l.newError("SERVICE_UNAVAILABLE", "Service temporarily unavailable")
	return seller.ErrorAnswer(e)
}

// pick returns the first code the spec lists, else the last one.
func (l *Layer) pick(codes ...string) string {
	for _, code := range codes {
		if _, ok := l.spec.Recovery(code); ok {
			return code
		}
	}
	return codes[len(codes)-1]
}

// conflict is the error for a key used with another request. Nothing of
// the stored answer or the fingerprint goes with it (a stolen key must not
// become a way to read another request), and on the wire it is
// {"code", "message"} only: the allowlist of the compliance invariant
// idempotency.conflict_no_payload_leak (@adcp/sdk), which refuses even
// recovery, derivable from the code. e.Recovery is still set for the
// seller's own use.
func (l *Layer) conflict() *adcperr.Error {
	e := l.newError(l.pick("IDEMPOTENCY_CONFLICT", "CONFLICT", "INVALID_REQUEST"),
		"This idempotency_key was used with a different request; use a fresh key for a new request")
	bare := adcperr.Error{Code: e.Code, Message: e.Message}
	if raw, err := bare.WireJSON(); err == nil {
		e.Raw = raw
	}
	return e
}

func (l *Layer) newError(code, message string) *adcperr.Error {
	e := &adcperr.Error{Code: code, Message: message}
	e.Recovery, _ = l.spec.Recovery(code)
	return e
}
