package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// Sender defaults.
const (
	DefaultDeliveryAttempts       = 5
	DefaultDeliveryTime           = 2 * time.Minute
	DefaultAttemptTimeout         = 10 * time.Second
	DefaultDeliveryInitialBackoff = 500 * time.Millisecond
	DefaultDeliveryMaxBackoff     = 15 * time.Second
	// DefaultDeliveryHorizon is how long a durable outbox (sellertask's)
	// retries one notification: the 24 hours AdCP 3.x receivers keep a
	// delivery key for (webhooks.mdx), advertised from 3.2 as
	// delivery_retry_horizon_seconds.
	DefaultDeliveryHorizon = 24 * time.Hour
	maxDeliveryHorizon     = 7 * 24 * time.Hour
)

// SenderOptions configure a Sender. The zero value is the production
// setup: https to public addresses only, 5 attempts within 2 minutes.
type SenderOptions struct {
	// Policy says which URLs and addresses may be posted to. Its
	// AllowLoopback is for tests against an httptest server only.
	Policy untrusted.PushURLPolicy
	// Client, when set, sends the posts instead of the Sender's own, which
	// checks every address it connects to against Policy (so a host name
	// cannot resolve to an internal address), uses no proxy and follows no
	// redirect. A Client of yours must do the same.
	Client *http.Client
	// Retry is how a delivery retries, in runtime/retry's words, with the
	// defaults of a webhook: MaxAttempts bounds the posts per delivery (0
	// means DefaultDeliveryAttempts); MaxElapsed its total time, waits
	// included, a retry starting only when its AttemptTimeout fits in what
	// is left (0 means DefaultDeliveryTime); the backoff is exponential
	// from InitialBackoff (0 means DefaultDeliveryInitialBackoff), capped at
	// MaxBackoff (0 means DefaultDeliveryMaxBackoff), and a Retry-After the
	// receiver sends is honoured up to MaxBackoff. A wait that would pass
	// MaxElapsed is not waited. Retryable is the Sender's own (timeouts,
	// 408, 429 and 5xx) and is ignored here.
	Retry retry.Policy
	// AttemptTimeout bounds one post; 0 means DefaultAttemptTimeout.
	AttemptTimeout time.Duration
	// Horizon is how long a durable outbox (sellertask's Manager on a
	// store that keeps one) retries one notification, counted from its
	// first attempt, on the schedule NextAttempt gives: a receiver away for
	// minutes or hours gets every notification once it is back. Capability
	// advertises it where the version has delivery_retry_horizon_seconds
	// (3.2), at least 24 hours, which is also its default
	// (DefaultDeliveryHorizon); at most 7 days, the field's maximum (a
	// publisher may not retry past what it advertised). Send's own retries
	// keep to Retry.
	Horizon time.Duration
	// Now is the clock of signatures and of Retry-After dates; nil means
	// time.Now.
	Now func() time.Time
	// UserAgent is sent on every post; "" sends "adcpgen-webhook".
	UserAgent string
	// Signer signs every post to a push_notification_config without an
	// authentication block with the RFC 9421 webhook profile (AdCP 3.0's
	// baseline; a signing.Signer of signing.WebhookProfile for the spec
	// version served, holding the seller's request-signing key whose JWK
	// its brand.json agents[] entry publishes). Without it such posts are
	// refused (ErrNoSigner): AdCP has no unsigned webhooks.
	Signer *signing.Signer
	// LoopbackOnly confines the Sender's own client to loopback hosts (a
	// loopback address or "localhost"): any other host is refused before
	// it is resolved, so a test that registers a public URL sends nothing
	// off the machine, not even a DNS query. URLs are still checked by
	// Policy, so such a request is accepted and its delivery fails. For
	// tests only; it needs Policy.AllowLoopback to post anywhere.
	LoopbackOnly bool
	// Observer is told of each post (its attempt number, the receiver's
	// host, the HTTP status) and writes the trace context into its
	// headers, so a receiver can continue the seller's trace
	// (runtime/oteladcp). nil observes nothing, at no cost.
	Observer observe.Observer
}

// Sender posts webhooks to buyers: the seller side of AdCP push
// notifications. It signs each post with RFC 9421, or with the legacy
// scheme the buyer chose in push_notification_config.authentication
// (never both: security.mdx "Mode selection is a switch"), retries
// transient failures with backoff, and never posts to an internal
// address. Safe for concurrent use.
type Sender struct {
	opts   SenderOptions
	client *http.Client
}

// NewSender returns a Sender.
func NewSender(opts SenderOptions) *Sender {
	if opts.Retry.MaxAttempts <= 0 {
		opts.Retry.MaxAttempts = DefaultDeliveryAttempts
	}
	if opts.Retry.MaxElapsed <= 0 {
		opts.Retry.MaxElapsed = DefaultDeliveryTime
	}
	if opts.AttemptTimeout <= 0 {
		opts.AttemptTimeout = DefaultAttemptTimeout
	}
	if opts.Retry.InitialBackoff <= 0 {
		opts.Retry.InitialBackoff = DefaultDeliveryInitialBackoff
	}
	if opts.Retry.MaxBackoff <= 0 {
		opts.Retry.MaxBackoff = DefaultDeliveryMaxBackoff
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "adcpgen-webhook"
	}
	if opts.Horizon <= 0 {
		opts.Horizon = DefaultDeliveryHorizon
	}
	opts.Horizon = min(opts.Horizon, maxDeliveryHorizon)
	client := opts.Client
	if client == nil {
		client = untrusted.NewHTTPClient(untrusted.ClientOptions{Policy: opts.Policy, LoopbackOnly: opts.LoopbackOnly})
	}
	return &Sender{opts: opts, client: client}
}

// Push is one webhook delivery: the body (MCPPayload.Encode, or an A2A
// task) and where and how to post it.
type Push struct {
	Config PushConfig
	Body   []byte
	// Attempt is the number of the attempt an Attempt call makes, from 1,
	// for the Observer (an outbox counts them); Send numbers its own.
	Attempt int
}

// DeliveryError is a delivery that did not succeed: how many posts were
// made, the last HTTP status (0 when none came back) and the last failure.
// Permanent reports a failure retrying cannot fix (a refused URL, a bad
// secret, a 4xx answer).
type DeliveryError struct {
	URL       string
	Attempts  int
	Status    int
	Permanent bool
	// RetryAfter is the receiver's Retry-After on the last attempt, 0 when
	// it sent none.
	RetryAfter time.Duration
	Err        error
}

func (e *DeliveryError) Error() string {
	s := fmt.Sprintf("webhook delivery to %s failed after %d attempt(s)", e.URL, e.Attempts)
	if e.Status != 0 {
		s += fmt.Sprintf(" (last HTTP %d)", e.Status)
	}
	return s + ": " + e.Err.Error()
}

func (e *DeliveryError) Unwrap() error { return e.Err }

// ErrRejectedByReceiver: the receiver answered with a status retrying
// cannot change (a 4xx other than 408 and 429, or a redirect).
var ErrRejectedByReceiver = errors.New("receiver refused the webhook")

// Check reports what would make Send refuse cfg before posting anything:
// a URL the policy forbids (a *untrusted.URLError), an HMAC secret that is
// too short or weak, an unknown scheme, no Signer for an RFC 9421 post
// (ErrNoSigner). Sellers call it when a request registers a
// push_notification_config, to refuse the request instead of failing the
// delivery later.
func (s *Sender) Check(cfg PushConfig) error {
	if _, err := untrusted.CheckPushURL(cfg.URL, s.opts.Policy); err != nil {
		return err
	}
	switch cfg.Scheme {
	case SchemeHMAC:
		_, err := NewHMAC([]byte(cfg.Credentials))
		return err
	case SchemeBearer:
		return nil
	case "":
		return s.checkSigner()
	}
	return fmt.Errorf("unknown authentication scheme %q", cfg.Scheme)
}

// Send posts p until the receiver answers 2xx, retrying network errors,
// timeouts, 408, 429 and 5xx with backoff, within the attempt and time
// bounds and ctx. Each attempt is signed afresh (RFC 9421: a new nonce and
// created time; HMAC: the attempt's timestamp); the body, and so the
// payload's idempotency key, stays the same, so the receiver can drop
// duplicates. A 401 is final (security.mdx: a webhook_* challenge is
// terminal for the delivery), its code in the error.
func (s *Sender) Send(ctx context.Context, p Push) error {
	u, err := untrusted.CheckPushURL(p.Config.URL, s.opts.Policy)
	if err != nil {
		return &DeliveryError{URL: untrusted.SanitizeTruncate(p.Config.URL, 256), Permanent: true, Err: err}
	}
	target := u.String()
	fail := func(attempts, status int, permanent bool, err error) error {
		return &DeliveryError{URL: u.Redacted(), Attempts: attempts, Status: status, Permanent: permanent, Err: err}
	}
	var signer *HMAC
	switch p.Config.Scheme {
	case SchemeHMAC:
		if signer, err = NewHMAC([]byte(p.Config.Credentials)); err != nil {
			return fail(0, 0, true, err)
		}
		if err := signable(signer, p.Body); err != nil {
			return fail(0, 0, true, err)
		}
	case SchemeBearer:
	case "":
		if err := s.checkSigner(); err != nil {
			return fail(0, 0, true, err)
		}
	default:
		return fail(0, 0, true, fmt.Errorf("unknown authentication scheme %q", p.Config.Scheme))
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.Retry.MaxElapsed)
	defer cancel()
	// The policy reads the outcome of the attempt it just made.
	attempts, status := 0, 0
	var last error
	var retryAfter time.Duration
	// A retry starts only when its whole AttemptTimeout fits in the time
	// left: an attempt the bound cuts short may reach the receiver or not,
	// and Attempts could not say which.
	policy := s.opts.Retry
	policy.MaxElapsed -= s.opts.AttemptTimeout
	if policy.MaxElapsed <= 0 {
		policy.MaxAttempts, policy.MaxElapsed = 1, s.opts.Retry.MaxElapsed
	}
	policy.Retryable = func(error) (time.Duration, bool) {
		return min(retryAfter, policy.MaxBackoff), retryable(status, last)
	}
	err = policy.Do(ctx, func(ctx context.Context, attempt int) error {
		attempts = attempt
		status, retryAfter, last = s.attempt(ctx, attempt, u.Host, target, p, signer)
		return last
	})
	var exhausted *retry.ExhaustedError
	switch {
	case err == nil:
		return nil
	case err == last: // not retryable
		return fail(attempts, status, true, last)
	case errors.As(err, &exhausted) && exhausted.NextWait > 0:
		return fail(attempts, status, false, fmt.Errorf("%w (the next wait, %s, would leave too little of the delivery's time for another attempt)", last, exhausted.NextWait))
	case errors.As(err, &exhausted):
		return fail(attempts, status, false, last)
	}
	// ctx ended; the policy's error wraps the last failure when there was one.
	return fail(attempts, status, false, err)
}

// signable refuses a body the signer would refuse, before any post.
func signable(h *HMAC, body []byte) error {
	_, err := h.Sign(0, body)
	return err
}

// post makes one attempt. It returns the HTTP status (0 when there was
// none), the Retry-After the receiver asked for, and nil on a 2xx.
func (s *Sender) post(ctx context.Context, target string, p Push, signer *HMAC) (int, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.AttemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(p.Body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.opts.UserAgent)
	if s.opts.Observer != nil {
		// Before signing: a signature covers only the components it lists.
		s.opts.Observer.Inject(ctx, req.Header.Set)
	}
	switch {
	case signer != nil:
		ts := s.now().Unix()
		sig, err := signer.Sign(ts, p.Body)
		if err != nil {
			return 0, 0, err
		}
		req.Header.Set(TimestampHeader, strconv.FormatInt(ts, 10))
		req.Header.Set(SignatureHeader, sig)
	case p.Config.Scheme == SchemeBearer:
		req.Header.Set("Authorization", "Bearer "+p.Config.Credentials)
	case p.Config.Scheme == "":
		if err := s.opts.Signer.SignRequest(req, p.Body); err != nil {
			return 0, 0, err
		}
	}
	if p.Config.Token != "" {
		req.Header.Set(A2ATokenHeader, p.Config.Token)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp.StatusCode, 0, nil
	}
	retryAfter, _ := retry.ParseRetryAfter(resp.Header.Get("Retry-After"), s.now())
	if code := challengeCode(resp); code != "" {
		return resp.StatusCode, retryAfter, fmt.Errorf("%w: HTTP %d %s", ErrRejectedByReceiver, resp.StatusCode, code)
	}
	return resp.StatusCode, retryAfter, fmt.Errorf("%w: HTTP %d", ErrRejectedByReceiver, resp.StatusCode)
}

// attempt is post, observed as a PostWebhook operation.
func (s *Sender) attempt(ctx context.Context, n int, host, target string, p Push, signer *HMAC) (int, time.Duration, error) {
	if s.opts.Observer == nil {
		return s.post(ctx, target, p, signer)
	}
	op := &observe.Op{Kind: observe.PostWebhook, Attempt: n, Host: host}
	ctx, end := s.opts.Observer.Start(ctx, op)
	status, wait, err := s.post(ctx, target, p, signer)
	op.HTTPStatus, op.Err = status, err
	end()
	return status, wait, err
}

func (s *Sender) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// retryable: no answer (network error, timeout), or 408, 429, 5xx.
func retryable(status int, err error) bool {
	if status == 0 {
		// An address the policy refuses stays refused.
		return !errors.Is(err, untrusted.ErrURLInternal) && !errors.Is(err, untrusted.ErrNotLoopback)
	}
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500
}

// Attempt makes one signed post of p, without retrying: nil when the
// receiver answered 2xx, else a *DeliveryError saying whether another
// attempt may succeed (Permanent false) and the receiver's Retry-After. A
// durable outbox posts with it and schedules the next attempt with
// NextAttempt; the body, and so the payload's idempotency_key, is the same
// on every attempt, whichever replica makes it.
func (s *Sender) Attempt(ctx context.Context, p Push) *DeliveryError {
	u, err := untrusted.CheckPushURL(p.Config.URL, s.opts.Policy)
	if err != nil {
		return &DeliveryError{URL: untrusted.SanitizeTruncate(p.Config.URL, 256), Permanent: true, Err: err}
	}
	fail := func(status int, permanent bool, retryAfter time.Duration, err error) *DeliveryError {
		return &DeliveryError{URL: u.Redacted(), Attempts: 1, Status: status, Permanent: permanent, RetryAfter: retryAfter, Err: err}
	}
	var signer *HMAC
	switch p.Config.Scheme {
	case SchemeHMAC:
		if signer, err = NewHMAC([]byte(p.Config.Credentials)); err != nil {
			return fail(0, true, 0, err)
		}
		if err := signable(signer, p.Body); err != nil {
			return fail(0, true, 0, err)
		}
	case SchemeBearer:
	case "":
		if err := s.checkSigner(); err != nil {
			return fail(0, true, 0, err)
		}
	default:
		return fail(0, true, 0, fmt.Errorf("unknown authentication scheme %q", p.Config.Scheme))
	}
	status, retryAfter, err := s.attempt(ctx, p.Attempt, u.Host, u.String(), p, signer)
	if err == nil {
		return nil
	}
	return fail(status, !retryable(status, err), retryAfter, err)
}

// Horizon is how long a durable outbox retries one notification
// (SenderOptions.Horizon).
func (s *Sender) Horizon() time.Duration { return s.opts.Horizon }

// NextAttempt is when to post a notification again after a failed attempt
// (attempts made so far, the first at first): exponential from
// Retry.InitialBackoff, doubling, up to Retry.MaxBackoff, and once an
// outage is long, a quarter of the time since the first attempt (at most
// an hour), so a receiver back after minutes or hours gets its
// notifications within a quarter of its outage, in a few dozen attempts a
// day; never sooner than the receiver's Retry-After. ok is false when that
// time is past the Horizon: the notification is given up.
func (s *Sender) NextAttempt(first, now time.Time, attempts int, retryAfter time.Duration) (next time.Time, ok bool) {
	wait := s.opts.Retry.InitialBackoff
	for i := 1; i < attempts && wait < s.opts.Retry.MaxBackoff; i++ {
		wait *= 2
	}
	wait = min(wait, s.opts.Retry.MaxBackoff)
	wait = max(wait, min(now.Sub(first)/4, time.Hour), retryAfter)
	next = now.Add(wait)
	return next, !next.After(first.Add(s.opts.Horizon))
}
