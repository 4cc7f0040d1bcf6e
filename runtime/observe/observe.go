// Package observe is the runtime's telemetry hook: the buyer and the seller
// report each operation they run, in AdCP's terms, to an Observer, which
// makes spans and metrics of it. runtime/oteladcp (a module of its own) is
// the OpenTelemetry one; this package records nothing and depends on
// nothing but the standard library, so a program without telemetry pays
// nothing for it: every Observer option is nil by default, and then the
// runtime does not even build an Op.
//
// An Op says what ran and how it ended: the tool, the transport, the AdCP
// release, the task status, the AdCP error code and its recovery, a replay,
// a signature verdict. It never holds a credential, a key or a payload: an
// Observer cannot leak what it is never given. The caller's trace context
// reaches it through a Carrier that answers propagation fields only.
package observe

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Observer is told of the runtime's operations as they start and end.
// Implementations must be safe for concurrent use.
type Observer interface {
	// Start is called as op begins, with the context it begins in. It
	// returns the context op runs in (carrying its span, say) and end,
	// which the runtime calls exactly once, when op has ended and its
	// outcome fields are set. op is not changed after end.
	Start(ctx context.Context, op *Op) (context.Context, func())
	// Inject writes the trace context of ctx with set, one propagation
	// field at a time (W3C traceparent, tracestate, baggage): the buyer
	// sends them with each call, the seller with each webhook.
	Inject(ctx context.Context, set func(key, value string))
}

// OpKind says which operation an Op is. The fields each kind sets are
// listed beside it; Err is set by any kind that failed for another reason
// than an AdCP error.
type OpKind uint8

const (
	// ServeCall is one tool call a seller serves, from the transport's
	// hand-off to the answer it sends. Start: Tool ("" for a tool it does
	// not serve), Transport, Release, Peer, Signature. End: Status, Code,
	// Recovery, Replayed.
	ServeCall OpKind = iota + 1
	// ValidateRequest reads a call's arguments: the size cap, one strict
	// JSON object, the request schema and the strict decoder. Start: Tool.
	// End: Code when they were refused.
	ValidateRequest
	// RunHandler is the tool's handler. Start: Tool. End: Status, Code.
	RunHandler
	// ApplyIdempotency is the idempotency layer around the handler of a
	// mutating call. Start: Tool. End: Outcome (claimed, replay, conflict,
	// in_flight, expired, missing_key, invalid_key, unavailable), Code.
	ApplyIdempotency
	// CallStore is one call of the seller's store. Start: Operation. End:
	// Err (a store error, not the absence of a record).
	CallStore
	// CreateTask creates an async task. Start: Tool. End: Err.
	CreateTask
	// UpdateTask records a task's progress or final answer. Start: Tool,
	// TaskID, Status, and Code and Recovery for a failure. End: Err.
	UpdateTask
	// DeliverWebhook is one attempt at a push notification the seller's
	// outbox holds, on whichever replica claimed it. Start: Tool, TaskID,
	// Status (the one notified), Since (when the notification was made),
	// Attempts (this attempt's number, from 1), Peer (the trace context of
	// the update that made it, kept with the notification). End: Outcome
	// (delivered; retrying: it failed and is tried again later; failed:
	// given up), HTTPStatus, Err.
	DeliverWebhook
	// PostWebhook is one HTTP POST of a webhook. Start: Attempt (0 when
	// unknown), Host. End: HTTPStatus, Err.
	PostWebhook
	// VerifySignature checks a request's RFC 9421 signature, at the HTTP
	// gate before any call is read. Start: Tool (the one the body calls,
	// when served), Peer. End: Outcome (verified, unsigned,
	// warned, refused, unavailable), Code (the signing error code, such as
	// request_signature_key_unknown).
	VerifySignature
	// SendCall is one tool call a buyer makes, retries included. Start:
	// Tool, Transport, Release. End: Status, Code, Recovery, Replayed,
	// Attempts.
	SendCall
	// PollTask is one poll of a task's state by a buyer. Start: Tool,
	// TaskID, Transport, Release. End: Status, Code.
	PollTask
	// EnqueueWebhook writes the push notification of a task update into
	// the seller's outbox, with the update; the trace context the
	// Observer injects in it is kept with the notification. Start: Tool,
	// TaskID, Status. End: Err.
	EnqueueWebhook
)

var kindNames = [...]string{"", "serve_call", "validate_request", "run_handler", "apply_idempotency", "call_store",
	"create_task", "update_task", "deliver_webhook", "post_webhook", "verify_signature", "send_call", "poll_task", "enqueue_webhook"}

func (k OpKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "op_kind_" + strconv.Itoa(int(k))
}

// Op is one operation: what its kind sets of the fields below (see
// OpKind), and nothing else.
type Op struct {
	Kind OpKind

	// Set when the operation starts.

	// Tool is the AdCP tool (the A2A skill): on the seller's side one it
	// serves, on the buyer's the one called.
	Tool string
	// Transport is "mcp" or "a2a".
	Transport string
	// Release is the AdCP release the call is served or made in
	// ("3.0.26").
	Release string
	// Peer reads the trace context the caller sent (ServeCall,
	// VerifySignature), or the one a notification was made in
	// (DeliverWebhook); nil when none can be.
	Peer Carrier
	// Signature is the verdict on the request's signature a served call
	// came with: "verified", "unsigned", or "" when the seller verifies
	// none.
	Signature string
	// Operation names the store call: "claim", "complete", "release",
	// "renew", "create_task", "get_task", "update_task", "list_tasks".
	Operation string
	// TaskID is the AdCP task id; never a metric attribute (one per task).
	TaskID string
	// Attempt numbers a delivery's posts from 1.
	Attempt int
	// Host is the host (and port) a webhook is posted to: never the URL,
	// whose path or query may hold a token.
	Host string
	// Since is when the notification a delivery sends was made.
	Since time.Time

	// Set by the time the operation ends.

	// Status is the task status of the answer ("completed", "submitted",
	// "failed", ...).
	Status string
	// Code is the AdCP error code of an error answer; on the buyer's side
	// one the spec lists, else "_OTHER" (a seller's code is not bounded).
	Code string
	// Recovery is the error's recovery class (transient, correctable,
	// terminal).
	Recovery string
	// Replayed marks an answer replayed for an idempotency key.
	Replayed bool
	// Outcome is the kind's verdict (see OpKind).
	Outcome string
	// HTTPStatus is the HTTP status of a webhook post; 0 when none came.
	HTTPStatus int
	// Attempts counts a call's attempts; a delivery attempt's number.
	Attempts int
	// Err is a failure other than an AdCP error: a transport or store
	// error, a delivery that failed. Observers should record its type, not
	// its text, which may quote what it failed on.
	Err error
}

// Carrier reads one propagation field of the trace context a peer sent
// ("traceparent"), "" when it sent none.
type Carrier func(key string) string

// PeerOf is the Carrier of a call's trace context: the MCP request's
// params._meta first (where the MCP semantic conventions put it), then
// the HTTP request's headers. Either may be nil. It answers only
// propagation fields (W3C Trace Context and Baggage, B3, Jaeger, AWS X-Ray,
// OpenTracing), never a credential header.
func PeerOf(meta map[string]any, header http.Header) Carrier {
	if meta == nil && header == nil {
		return nil
	}
	return func(key string) string {
		key = strings.ToLower(key)
		if !propagationField(key) {
			return ""
		}
		if s, ok := meta[key].(string); ok {
			return s
		}
		return header.Get(key)
	}
}

// propagationField reports a header or _meta key a trace propagator reads.
func propagationField(key string) bool {
	switch key {
	case "traceparent", "tracestate", "baggage", "b3", "uber-trace-id", "x-amzn-trace-id":
		return true
	}
	for _, p := range [...]string{"x-b3-", "uberctx-", "ot-tracer-", "ot-baggage-"} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}
