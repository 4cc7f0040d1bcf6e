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
	// DefaultLease is how long a claim holds a key without renewal: how
	// soon after its replica died (kill -9, a lost machine) another call
	// takes the key over. The layer renews it every third of a lease.
	DefaultLease = 10 * time.Second
	// DefaultHandlerTimeout bounds a handler (security.mdx rule 9: the
	// lifetime of an in-flight key is bounded by the handler's timeout).
	DefaultHandlerTimeout = 2 * time.Minute
	// DefaultCompleteWait bounds how long a call waits for an unreachable
	// store to record its answer before answering a transient error.
	DefaultCompleteWait = 10 * time.Second
	// DefaultInFlightWait bounds wait-and-replay for versions without
	// IDEMPOTENCY_IN_FLIGHT: security.mdx prefers it for operations
	// typically under 5 s.
	DefaultInFlightWait = 5 * time.Second
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
	// Lease is how long a claim holds a key without renewal: the most a
	// key waits, after the replica running its handler died, before another
	// call takes it over (and the claim's token, its fence, stops the dead
	// owner's late writes from completing it). The layer renews it every
	// third of a lease while the handler runs and its answer is recorded.
	// 0 means DefaultLease. Keep it well above the clock skew between
	// replicas and a renewal's latency.
	Lease time.Duration
	// HandlerTimeout bounds a handler: its context ends then, and the
	// claim is no longer renewed, so a hung handler cannot keep its key in
	// flight (security.mdx rule 9). 0 means DefaultHandlerTimeout.
	// Capabilities declares the longest a key can stay in flight,
	// HandlerTimeout + CompleteWait + Lease, as in_flight_max_seconds where
	// the version has the field (3.1 and later).
	HandlerTimeout time.Duration
	// CompleteWait bounds how long a call keeps trying to record its answer
	// while the store cannot be reached (a database restarting): a success
	// is sent only once it is recorded. Past the wait the buyer gets a
	// transient SERVICE_UNAVAILABLE with the store's retry_after, and a
	// retry with the same key replays the answer once it is recorded, or
	// runs the handler again when nothing of the first call was kept (with
	// a sellerstore.Atomic store the handler's writes and its answer are
	// kept together or not at all). 0 means DefaultCompleteWait.
	CompleteWait time.Duration
	// InFlightWait is how long a call that finds its key still executing
	// waits for the first call's answer and replays it (AdCP's
	// wait-and-replay). 0 means: no wait when the version has
	// IDEMPOTENCY_IN_FLIGHT (the call is answered with it at once),
	// DefaultInFlightWait when it has not. After the wait, the call gets
	// IDEMPOTENCY_IN_FLIGHT, or CONFLICT (transient) in versions without
	// it, with retry_after the time left on the holder's lease: when it
	// lapses without renewal the next call takes the key over.
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
// A success is sent only once it is recorded: the claim is renewed while
// the handler runs and while the store is briefly away, and when the
// store stays away the buyer gets a transient SERVICE_UNAVAILABLE (with
// the store's retry_after) that a retry with the same key answers
// correctly. With a sellerstore.Atomic store (pgstore) the handler runs in
// a unit of work that the record's completion commits: the task it
// started and its own writes (pgstore's InTx) are kept with its answer or
// not at all, and a claim taken over (its owner's lease lapsed) rolls its
// old owner's work back.
//
// Keys are scoped by the authenticated principal and the tool: one buyer
// cannot replay, or learn anything about, another's. Where the version
// lacks one of these codes the nearest one it has is used. The records live
// in a sellerstore.IdempotencyStore, so replicas sharing a database agree.
type Layer struct {
	spec   *registry.Spec
	store  sellerstore.IdempotencyStore
	atomic sellerstore.Atomic // the store's units, nil when it has none
	opts   Options
	log    *slog.Logger
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
	if opts.HandlerTimeout <= 0 {
		opts.HandlerTimeout = DefaultHandlerTimeout
	}
	if opts.CompleteWait <= 0 {
		opts.CompleteWait = DefaultCompleteWait
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
	l := &Layer{spec: spec, store: store, opts: opts, log: opts.Logger}
	// The store's units, taken before an observer wraps it (the wrapper
	// passes the unit's context through).
	l.atomic, _ = store.(sellerstore.Atomic)
	if opts.Observer != nil {
		l.store = observedStore{store, opts.Observer}
	}
	if l.log == nil {
		l.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return l
}

// Capabilities is the adcp.idempotency object of get_adcp_capabilities for
// this layer: {"supported":true,"replay_ttl_seconds":N}, and
// "in_flight_max_seconds", the longest a key can stay in flight
// (HandlerTimeout + CompleteWait + Lease), in versions that have it: those
// with IDEMPOTENCY_IN_FLIGHT, which AdCP 3.1 added with it. Put it in
// seller.Options.Capabilities, under "adcp".
func (l *Layer) Capabilities() []byte {
	out := []byte(`{"supported":true,"replay_ttl_seconds":`)
	out = strconv.AppendInt(out, int64(l.opts.Retention/time.Second), 10)
	if _, ok := l.spec.Recovery("IDEMPOTENCY_IN_FLIGHT"); ok {
		out = append(out, `,"in_flight_max_seconds":`...)
		out = strconv.AppendInt(out, int64(l.inFlightMax().Round(time.Second)/time.Second), 10)
	}
	return append(out, '}')
}

// inFlightMax is the longest a key stays in flight: its handler's time,
// the wait for the store to record the answer, and the lease that then
// lapses.
func (l *Layer) inFlightMax() time.Duration {
	return min(l.opts.HandlerTimeout+l.opts.CompleteWait+l.opts.Lease, l.opts.Retention)
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
		if claim, err = l.wait(ctx, req, claim); err != nil {
			return l.unavailable(ctx, c, "claim", err)
		}
	}
	noteOutcome(ctx, outcomeName(claim.Outcome))
	if claim.Outcome == sellerstore.Claimed {
		return l.run(ctx, c, req, claim.Token, next)
	}
	return l.answer(ctx, c, claim)
}

// answer is the answer to a claim the call does not hold.
func (l *Layer) answer(ctx context.Context, c *seller.Call, claim sellerstore.Claim) *seller.Answer {
	switch claim.Outcome {
	case sellerstore.Replay:
		r := claim.Response
		return &seller.Answer{Status: task.Status(r.Status), TaskID: r.TaskID, Body: r.Body, Replayed: true}
	case sellerstore.Conflict:
		return seller.ErrorAnswer(l.conflict())
	case sellerstore.InFlight:
		e := l.newError(l.pick("IDEMPOTENCY_IN_FLIGHT", "CONFLICT", "SERVICE_UNAVAILABLE"),
			"A request with this idempotency_key is still being processed; retry with the same key")
		e.RetryAfter = l.leaseLeft(claim.LeaseUntil)
		return seller.ErrorAnswer(e)
	case sellerstore.Expired:
		return seller.ErrorAnswer(l.newError(l.pick("IDEMPOTENCY_EXPIRED", "IDEMPOTENCY_CONFLICT", "INVALID_REQUEST"),
			"This idempotency_key is past the replay window; if the first request's outcome is unknown, look it up before sending a new request with a fresh key"))
	}
	return l.unavailable(ctx, c, "claim", fmt.Errorf("unexpected outcome %v", claim.Outcome))
}

// leaseLeft is the retry_after of a key in flight: when the holder's lease
// lapses unless renewed, and the key can be taken over (at least 1 s).
func (l *Layer) leaseLeft(until time.Time) time.Duration {
	left := time.Until(until)
	if left < time.Second {
		return time.Second
	}
	return left.Round(time.Second)
}

// claim runs Claim with a context the buyer's disconnect does not cancel,
// so a record is never left half-written.
func (l *Layer) claim(ctx context.Context, req sellerstore.ClaimRequest) (sellerstore.Claim, error) {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	return l.store.Claim(ctx, req)
}

// wait polls until the key stops being in flight or InFlightWait passes;
// it returns the last claim (InFlight, with the holder's lease, when the
// wait ran out).
func (l *Layer) wait(ctx context.Context, req sellerstore.ClaimRequest, last sellerstore.Claim) (sellerstore.Claim, error) {
	deadline := time.NewTimer(l.opts.InFlightWait)
	defer deadline.Stop()
	tick := time.NewTicker(l.opts.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return last, nil
		case <-deadline.C:
			return last, nil
		case <-tick.C:
		}
		claim, err := l.claim(ctx, req)
		if err != nil || claim.Outcome != sellerstore.InFlight {
			return claim, err
		}
		last = claim
	}
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

// stored is what the record keeps of a. The stored body leaves out the
// request's context, and the envelope's conversation id where the schema
// has one: a replay echoes those of the call it answers. Everything else,
// the envelope's status, task_id and message included, is replayed byte
// for byte.
func stored(c *seller.Call, a *seller.Answer) sellerstore.StoredResponse {
	status := a.Status
	if status == "" {
		status = task.Completed
	}
	body, ok := wire.Lenient(a.Body).WithoutMember("context")
	if !ok {
		body = a.Body
	}
	if c.Tool.EnvelopeFor(string(status)).Owns(registry.MemberContextID, "") {
		if out, ok := wire.Lenient(body).WithoutMember(registry.MemberContextID); ok {
			body = out
		}
	}
	return sellerstore.StoredResponse{Body: body, Status: string(status), TaskID: a.TaskID}
}

// storeContext is ctx without its cancellation, bounded: store writes
// finish even when the buyer has gone.
func storeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
}

// unavailable logs a store failure and answers a transient
// SERVICE_UNAVAILABLE paced by the store's backoff (err's RetryAfter, as a
// sellerstore.OutageError has; 1 s when it says none), on either
// transport.
func (l *Layer) unavailable(ctx context.Context, c *seller.Call, op string, err error) *seller.Answer {
	noteOutcome(ctx, "unavailable")
	l.log.ErrorContext(ctx, "adcp: idempotency store failed", "op", op, "tool", c.Tool.Name, "err", err.Error())
	e := l.newError("SERVICE_UNAVAILABLE", "Service temporarily unavailable")
	if errors.Is(err, sellerstore.ErrFull) {
		// security.mdx rule 8: a cache that may not grow answers
		// RATE_LIMITED rather than store another key.
		e = l.newError(l.pick("RATE_LIMITED", "SERVICE_UNAVAILABLE"), "Too many requests in flight or in the replay window; retry later")
	}
	e.RetryAfter = time.Second
	var paced interface{ RetryAfter() time.Duration }
	if errors.As(err, &paced) && paced.RetryAfter() > 0 {
		e.RetryAfter = paced.RetryAfter()
	}
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
