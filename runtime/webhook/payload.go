package webhook

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// MCPPayload is the MCP webhook payload a seller posts to the buyer's
// push-notification URL (core/mcp-webhook-payload.json): the envelope and
// the result for the status (the full task response for completed and
// failed, the tool's async response for an interim status).
type MCPPayload struct {
	// IdempotencyKey is the event's key, the same on every retry of the
	// post; NewEventKey makes one. Required from AdCP 3.0.
	IdempotencyKey string
	// OperationID echoes push_notification_config.operation_id. A seller
	// never derives it from the URL.
	OperationID string
	TaskID      string
	// TaskType is the tool name ("create_media_buy").
	TaskType string
	// Protocol is the tool's AdCP protocol ("media-buy"); optional.
	Protocol  string
	Status    task.Status
	Timestamp time.Time
	Message   string
	ContextID string
	// Token echoes push_notification_config.token.
	Token string
	// Result is the encoded result object; nil sends none.
	Result json.RawMessage
}

// NewEventKey returns a fresh webhook idempotency key: "whk_" and
// crypto/rand.Text (26 base32 characters, 130 random bits), within the
// pattern ^[A-Za-z0-9_.:-]{16,255}$.
func NewEventKey() string { return "whk_" + rand.Text() }

// Encode writes the payload as compact JSON (the bytes to sign and send).
// Task id, task type, a known status and the idempotency key are required;
// Result must be one strict JSON object.
func (p MCPPayload) Encode() ([]byte, error) {
	switch {
	case p.TaskID == "":
		return nil, errors.New("webhook payload: empty task_id")
	case p.TaskType == "":
		return nil, errors.New("webhook payload: empty task_type")
	case !p.Status.Known():
		return nil, fmt.Errorf("webhook payload: unknown status %q", p.Status)
	case p.IdempotencyKey == "":
		return nil, errors.New("webhook payload: empty idempotency_key")
	}
	if p.Result != nil && !wire.Lenient(p.Result).IsObject() {
		return nil, errors.New("webhook payload: result is not a JSON object")
	}
	ts := p.Timestamp
	if ts.IsZero() {
		ts = time.Now()
	}
	var e wire.Encoder
	e.ObjectStart()
	for _, m := range [...]struct{ key, value string }{
		{"idempotency_key", p.IdempotencyKey}, {"operation_id", p.OperationID}, {"task_id", p.TaskID},
		{"task_type", p.TaskType}, {"protocol", p.Protocol}, {"status", string(p.Status)},
		{"timestamp", ts.UTC().Format(time.RFC3339Nano)}, {"message", p.Message},
		{"context_id", p.ContextID}, {"token", p.Token},
	} {
		if m.value != "" {
			e.Key(m.key)
			e.String(m.value)
		}
	}
	if p.Result != nil {
		e.Key("result")
		e.Raw(p.Result) // checked strictly, compacted
	}
	e.ObjectEnd()
	if err := e.Err(); err != nil {
		return nil, fmt.Errorf("webhook payload: result: %w", err)
	}
	return e.Bytes(), nil
}
