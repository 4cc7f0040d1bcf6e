package webhook

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Header names of the legacy HMAC-SHA256 scheme, and the A2A push token.
const (
	SignatureHeader = "X-ADCP-Signature"
	TimestampHeader = "X-ADCP-Timestamp"
	A2ATokenHeader  = "X-A2A-Notification-Token"
)

// Receiver defaults.
const (
	DefaultMaxBodyBytes   = 4 << 20
	DefaultMaxSeen        = 10000
	DefaultDedupRetention = 24 * time.Hour
)

// NotificationHandler handles one verified notification. Returning an error
// answers 500, so the seller retries the post; the notification's
// signature and idempotency key are then accepted again.
type NotificationHandler func(ctx context.Context, n *Notification) error

// ReceiverOptions configure a Receiver. The zero value accepts unsigned
// posts of up to DefaultMaxBodyBytes: set Verifier, HMAC, or both.
type ReceiverOptions struct {
	// Verifier verifies RFC 9421 webhooks, AdCP 3.0's baseline for a
	// registration without authentication: a signing.Verifier of
	// signing.WebhookProfile for the receiver's spec version, with the
	// seller's keys (discovery.NewAgent(sellerURL, caps,
	// discovery.AgentOptions{Surface: discovery.WebhookSigning}) finds them
	// from the seller's URL; keys.Static holds configured ones). A
	// post without a valid signature is refused with 401 and
	// WWW-Authenticate: Signature error="webhook_...".
	Verifier *signing.Verifier
	// HMAC verifies the legacy signature (X-ADCP-Signature over
	// "<X-ADCP-Timestamp>.<body>") of registrations whose
	// push_notification_config carried authentication; a post without a
	// valid one is refused. With neither HMAC nor Verifier, unsigned posts
	// are accepted: use that only behind another check.
	HMAC *HMAC
	// Legacy, for a receiver with both Verifier and HMAC, reports whether
	// the registration a post is for asked for the legacy scheme (by its
	// URL route, say). The path is chosen by the registration, never by
	// the post's headers (security.mdx: no "try 9421, fall back to HMAC"):
	// a post signed the other way is refused with webhook_mode_mismatch.
	// nil with both set: every post takes the RFC 9421 path.
	Legacy func(r *http.Request) bool
	// Token, when set, must equal the payload's token member (MCP) or the
	// X-A2A-Notification-Token header (A2A); compared in constant time.
	Token string
	// MaxBodyBytes caps the request body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxSeen bounds the remembered signatures and idempotency keys; 0
	// means DefaultMaxSeen. When every remembered signature is still within
	// the timestamp window and a new one arrives, the post is refused with
	// 503 (the seller retries it later) rather than forgetting one that
	// could then be replayed.
	MaxSeen int
	// DedupRetention is how long a payload's idempotency_key is remembered
	// to drop redelivered events: at least the greater of 24 hours and the
	// sender's delivery_retry_horizon_seconds (webhooks.mdx); 0 means
	// DefaultDedupRetention.
	DedupRetention time.Duration
	// Dedup keeps the published keys, durably and shared by every
	// receiver of the buyer (sellerstore/pgstore's Dedup); nil keeps them
	// in this Receiver's memory, within MaxSeen, which AdCP calls
	// non-conformant outside tests and a single process.
	Dedup DedupStore
	// TaskType returns the task type a request's URL routes to, "" when it
	// says none. nil reads the path wildcard {task_type}, set when the
	// receiver is mounted on an http.ServeMux pattern such as
	// "POST /webhooks/adcp/{task_type}/{operation_id}" (the URL-based
	// routing AdCP recommends; the payload's task_type is deprecated).
	TaskType func(r *http.Request) string
	// Rejected, when set, is told of every refused post with the status
	// answered; for logs.
	Rejected func(r *http.Request, status int, err error)
}

// Receiver is the buyer's webhook endpoint, an http.Handler. It takes the
// seller's posts (MCP webhook payloads and A2A pushes), verifies them,
// decodes each strictly into the type the spec version gives its task type
// and status, and passes it to the handler registered for the task type.
//
// What it answers (async-identity-and-convergence.mdx "Webhook
// delivery-key binding" for 2xx, 409 and 503): 200 when the handler
// accepted the notification, or it was a redelivery of one already
// accepted (the same sender, idempotency_key and canonical payload); 400
// for a body that is not one strict JSON webhook payload, holds an unknown
// status or task type, or does not decode as its task type's result; 401
// for a missing, stale, malformed or wrong signature or token (an RFC 9421
// refusal with WWW-Authenticate: Signature error="<code>", a post signed
// the other way than its registration with webhook_mode_mismatch); 404
// when no handler takes the task type; 405 for another method than POST;
// 409 for a replayed HMAC signature, or an idempotency_key the sender
// already used for another payload; 413 for a body over the cap; 500 when
// the handler failed; 503 when the replay memory is full, the same event
// is being handled, or the verifier's replay store or revocation source
// failed.
//
// Deduplication is in ReceiverOptions.Dedup: give every receiver of a
// buyer one durable store (sellerstore/pgstore's Dedup), as AdCP requires,
// and an event redelivered to another process, or after a restart, is
// acknowledged without being handled again; a redelivery while the first
// copy is being handled is told to retry (503), one that comes after it is
// answered 200 without handling. The default keeps the keys in memory,
// for tests and a single process. A buyer running several receiver
// processes also shares the Verifier's replay store.
type Receiver struct {
	spec     *registry.Spec
	x        *extract.Extractor
	opts     ReceiverOptions
	sigs     *seenSet
	dedup    DedupStore
	mu       sync.RWMutex
	handlers map[string]NotificationHandler
	fallback NotificationHandler
}

// NewReceiver returns a receiver for the spec version of a generated
// package (its Spec()).
func NewReceiver(spec *registry.Spec, opts ReceiverOptions) *Receiver {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxSeen <= 0 {
		opts.MaxSeen = DefaultMaxSeen
	}
	if opts.DedupRetention <= 0 {
		opts.DedupRetention = DefaultDedupRetention
	}
	window := DefaultWindow
	if opts.HMAC != nil && opts.HMAC.Window > 0 {
		window = opts.HMAC.Window
	}
	rc := &Receiver{
		spec: spec,
		x:    extract.New(spec),
		opts: opts,
		// A signature is valid while |now - timestamp| <= window, so one
		// first seen now cannot verify after now + 2*window.
		sigs:     newSeenSet(2*window+time.Second, opts.MaxSeen, false),
		dedup:    opts.Dedup,
		handlers: map[string]NotificationHandler{},
	}
	if rc.dedup == nil {
		rc.dedup = memoryDedup{keys: newSeenSet(opts.DedupRetention, opts.MaxSeen, true)}
	}
	return rc
}

// Handle registers fn for one task type ("create_media_buy", or a type
// task_result_resolution names such as a delivery report). A later
// registration for the same task type replaces the earlier one.
func (rc *Receiver) Handle(taskType string, fn NotificationHandler) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.handlers[taskType] = fn
}

// HandleOther registers fn for every task type no Handle names.
func (rc *Receiver) HandleOther(fn NotificationHandler) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.fallback = fn
}

func (rc *Receiver) handler(taskType string) NotificationHandler {
	rc.mu.RLock()
	defer rc.mu.RUnlock()
	if h, ok := rc.handlers[taskType]; ok {
		return h
	}
	return rc.fallback
}

// Refusals. A *ReceiveError wraps one of them, or an HMAC error
// (ErrSignatureMismatch, ErrTimestampSkew, ...), or a *wire.DecodeError.
var (
	ErrMethod           = errors.New("webhook: method is not POST")
	ErrBodyTooLarge     = errors.New("webhook: body exceeds the size cap")
	ErrReplayed         = errors.New("webhook: signature already used (replayed post)")
	ErrReplayMemoryFull = errors.New("webhook: too many recent signatures to remember another; retry later")
	ErrNotWebhook       = errors.New("webhook: body is not an MCP webhook payload or an A2A push")
	ErrStatus           = errors.New("webhook: unknown task status")
	ErrTaskType         = errors.New("webhook: task type")
	ErrTokenMismatch    = errors.New("webhook: token does not match")
	ErrNoHandler        = errors.New("webhook: no handler for the task type")
	ErrResult           = errors.New("webhook: result does not decode as the task type's type")
	ErrInProgress       = errors.New("webhook: the same event is being handled; retry later")
	ErrHandler          = errors.New("webhook: handler failed")
	ErrKeyReused        = errors.New("webhook: idempotency_key already delivered with another payload")
	ErrModeMismatch     = errors.New("webhook: signed another way than its registration asked")
	ErrVerifier         = errors.New("webhook: the signature could not be checked now; retry later")
	ErrDedup            = errors.New("webhook: the delivery keys could not be read or written now; retry later")
)

// ReceiveError is a refused post: the HTTP status answered and why. Code
// is the RFC 9421 code of a signature refusal (sent in WWW-Authenticate),
// "" otherwise.
type ReceiveError struct {
	Status int
	Code   signing.Code
	Err    error
}

func (e *ReceiveError) Error() string { return strconv.Itoa(e.Status) + " " + e.Err.Error() }
func (e *ReceiveError) Unwrap() error { return e.Err }

func refuse(status int, err error) *ReceiveError { return &ReceiveError{Status: status, Err: err} }

func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	status, err := rc.serve(w, r)
	if err != nil {
		if rc.opts.Rejected != nil {
			rc.opts.Rejected(r, err.Status, err)
		}
		if err.Status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", http.MethodPost)
		}
		if err.Status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "1")
		}
		if err.Code != "" {
			// Nothing but the code reaches the sender (security.mdx).
			signing.WriteChallenge(w, &signing.Rejection{Code: err.Code})
			return
		}
		writeJSON(w, err.Status, map[string]string{"error": err.Err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": status})
}

func writeJSON(w http.ResponseWriter, status int, v map[string]string) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// serve runs the checks in order, cheapest and most important first:
// method, size, signature and its replay (nothing unsigned is parsed),
// strict JSON, the envelope, the token, the task type, the result's type,
// the event's idempotency key and payload, the handler.
func (rc *Receiver) serve(w http.ResponseWriter, r *http.Request) (string, *ReceiveError) {
	if r.Method != http.MethodPost {
		return "", refuse(http.StatusMethodNotAllowed, ErrMethod)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, rc.opts.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return "", refuse(http.StatusRequestEntityTooLarge, fmt.Errorf("%w (%d bytes)", ErrBodyTooLarge, rc.opts.MaxBodyBytes))
		}
		return "", refuse(http.StatusBadRequest, fmt.Errorf("webhook: reading the body: %w", err))
	}
	from, rerr := rc.authenticate(r, body)
	if rerr != nil {
		return "", rerr
	}
	sigKey := from.hmacKey
	status, rerr := rc.deliver(r, body, from)
	if rerr != nil && sigKey != "" && rerr.Status >= 500 {
		rc.sigs.forget(sigKey) // the seller may retry the same post
	} else if sigKey != "" {
		rc.sigs.finish(sigKey)
	}
	return status, rerr
}

func (rc *Receiver) now() time.Time {
	if rc.opts.HMAC != nil && rc.opts.HMAC.Now != nil {
		return rc.opts.HMAC.Now()
	}
	return time.Now()
}

func (rc *Receiver) deliver(r *http.Request, body []byte, from sender) (string, *ReceiveError) {
	n, rerr := rc.decode(r, body)
	if rerr != nil {
		return "", rerr
	}
	n.Signer = from.signer
	fn := rc.handler(n.TaskType)
	if fn == nil {
		return "", refuse(http.StatusNotFound, fmt.Errorf("%w %q", ErrNoHandler, n.TaskType))
	}
	// The delivery key is bound to the sender and the payload
	// (async-identity-and-convergence.mdx "Webhook delivery-key binding"),
	// and one publisher is established before the handler runs
	// ("Publication and durable acknowledgement").
	key, token := "", ""
	ctx := context.WithoutCancel(r.Context()) // the record is kept whatever the sender does
	if n.IdempotencyKey != "" {
		key = from.identity + " " + n.IdempotencyKey // a key has no space (its pattern), nor a store NUL
		c, err := rc.dedup.Claim(ctx, key, payloadFingerprint(body), dedupLease, rc.now().Add(rc.opts.DedupRetention))
		switch {
		case err != nil:
			return "", refuse(http.StatusServiceUnavailable, fmt.Errorf("%w: %w", ErrDedup, err))
		case c.State == DedupDuplicate:
			return "duplicate", nil
		case c.State == DedupBusy:
			return "", refuse(http.StatusServiceUnavailable, ErrInProgress)
		case c.State == DedupConflict:
			return "", refuse(http.StatusConflict, fmt.Errorf("%w (%s)", ErrKeyReused, n.IdempotencyKey))
		}
		token = c.Token
	}
	if err := fn(r.Context(), n); err != nil {
		if key != "" {
			_ = rc.dedup.Drop(ctx, key, token) // else the key lapses with its lease
		}
		return "", refuse(http.StatusInternalServerError, ErrHandler)
	}
	if key != "" {
		if err := rc.dedup.Ack(ctx, key, token); err != nil {
			// Published but not recorded: the sender's retry may publish
			// again once the claim lapses; tell it to retry later.
			return "", refuse(http.StatusServiceUnavailable, fmt.Errorf("%w: %w", ErrDedup, err))
		}
	}
	return "processed", nil
}

// Decode verifies nothing: it reads a webhook body (already authenticated
// by the caller) into a Notification the way the receiver does, with the
// task type the URL routed to ("" for none). A *ReceiveError says why the
// body was refused.
func (rc *Receiver) Decode(body []byte, routeTaskType string) (*Notification, error) {
	n, rerr := rc.decodeBody(body, routeTaskType, "", "")
	if rerr != nil {
		return nil, rerr
	}
	return n, nil
}

func (rc *Receiver) decode(r *http.Request, body []byte) (*Notification, *ReceiveError) {
	route := ""
	if rc.opts.TaskType != nil {
		route = rc.opts.TaskType(r)
	} else {
		route = r.PathValue("task_type")
	}
	return rc.decodeBody(body, route, r.PathValue("operation_id"), r.Header.Get(A2ATokenHeader))
}

func (rc *Receiver) decodeBody(body []byte, route, routeOperation, headerToken string) (*Notification, *ReceiveError) {
	bad := func(err error) (*Notification, *ReceiveError) { return nil, refuse(http.StatusBadRequest, err) }
	if err := wire.Valid(body); err != nil {
		return bad(fmt.Errorf("webhook: body: %w", err))
	}
	res := rc.x.Webhook(body)
	switch res.Form {
	case extract.FormMCPWebhook, extract.FormTask, extract.FormStream:
	default:
		return bad(fmt.Errorf("%w: %w", ErrNotWebhook, res.Failure()))
	}
	if res.Problem != nil {
		return bad(fmt.Errorf("webhook: %w", res.Problem))
	}
	n := &Notification{Form: res.Form, Body: body, Data: res.Data, Err: res.Error, Status: task.Status(res.State)}
	lv, _ := wire.ParseLenient(body)
	if err := n.envelope(lv, res.Task); err != nil {
		return bad(fmt.Errorf("webhook: body: %w", err))
	}
	if !n.Status.Known() || n.Status == task.Unknown {
		return bad(fmt.Errorf("%w %q", ErrStatus, res.State))
	}
	if rc.opts.Token != "" {
		got := headerToken
		if n.Form == extract.FormMCPWebhook {
			got, _ = lv.Get("token").AsString()
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(rc.opts.Token)) != 1 {
			return nil, refuse(http.StatusUnauthorized, ErrTokenMismatch)
		}
	}
	switch {
	case route != "" && n.TaskType != "" && route != n.TaskType:
		return bad(fmt.Errorf("%w: the URL routes to %q but the payload says %q", ErrTaskType, route, n.TaskType))
	case route != "":
		n.TaskType = route
	case n.TaskType == "":
		return bad(fmt.Errorf("%w: none in the URL route or the payload", ErrTaskType))
	}
	if n.OperationID == "" {
		n.OperationID = routeOperation
	}
	newValue, ok := rc.resultType(n.TaskType, n.Status)
	if !ok {
		return bad(fmt.Errorf("%w %q is not one AdCP %s knows", ErrTaskType, n.TaskType, rc.spec.Version()))
	}
	if n.Data != nil && n.Err == nil && newValue != nil {
		v := newValue()
		if err := wire.Unmarshal(n.Data, v); err != nil {
			return bad(fmt.Errorf("%w (%s, %s): %s: %w", ErrResult, n.TaskType, n.Status, res.DataPath, err))
		}
		n.Payload = v
	}
	return n, nil
}

// resultType is the constructor of the payload type for a task type and
// status: the terminal type for a final status, the tool's async type for
// an interim one (nil when the spec gives none). ok is false for a task
// type the spec does not know.
func (rc *Receiver) resultType(taskType string, s task.Status) (newValue func() wire.Value, ok bool) {
	tool, isTool := rc.spec.Tool(taskType)
	result, hasResult := rc.spec.WebhookResult(taskType)
	if !isTool && !hasResult {
		return nil, false
	}
	if s.Final() {
		if hasResult {
			return result.New, true
		}
		return tool.NewResponse, true
	}
	if a, ok := tool.AsyncFor(string(s)); isTool && ok {
		return a.New, true
	}
	return nil, true
}
