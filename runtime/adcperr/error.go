package adcperr

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Error is an AdCP application error (the `adcp_error` object).
//
// Buyers get one from extraction: every field is read leniently from the
// object as received (wrong-typed fields are left empty), Recovery is the
// resolved class, RetryAfter the normalised delay, and Raw keeps the object
// byte for byte. Sellers build one and pass it to the builders of package
// seller.
//
// Every string here is seller-controlled. Route decisions through Code and
// Recovery only; use SafeMessage, SafeSuggestion or LLMContext before text
// reaches a model, and never use Field as a path into anything.
type Error struct {
	Code    string
	Message string
	// Recovery is the class the buyer acts on: the sent `recovery` when it is
	// transient, correctable or terminal, terminal for any other sent value,
	// else the spec's class for the code (unknown codes: terminal unless the
	// extractor was told otherwise). Sellers set it (a spec's Recovery(code)
	// gives the standard class); left empty, no recovery is sent and buyers
	// classify by code.
	Recovery registry.Recovery
	// RetryAfter is `retry_after` rounded up to a whole second and clamped to
	// [1s, 1h]; 0 when absent, non-numeric or non-finite.
	RetryAfter time.Duration
	// Field is the request field the error is about, for display only.
	Field      string
	Suggestion string
	Issues     []ValidationIssue
	// Details holds the typed details value for the code (the spec's
	// NewDetails type, decoded strictly), or the raw JSON (json.RawMessage)
	// when the spec has no type for the code or the strict decoder rejected
	// the object (prototype keys, duplicate keys, wrong types). Sellers may
	// set any value json.Marshal turns into an object. nil when absent.
	Details any
	// DetailsErr says why a typed decoder rejected the details, if it did.
	DetailsErr error
	// Raw is the adcp_error object exactly as received; nil for errors built
	// in Go. A non-nil Raw is what MarshalJSON writes, so intermediaries pass
	// errors through unchanged.
	Raw json.RawMessage
	// Path says where extraction found the error, e.g.
	// "structuredContent.adcp_error" or "artifacts[0].parts[1].data.adcp_error".
	Path string
}

// ValidationIssue is one entry of an error's `issues` list: a field that
// failed validation.
type ValidationIssue struct {
	Pointer    string `json:"pointer"`
	Message    string `json:"message"`
	Keyword    string `json:"keyword"`
	SchemaPath string `json:"schemaPath,omitempty"`
	SchemaID   string `json:"schema_id,omitempty"`
}

// Error describes the error for logs: code, class and the sanitised,
// truncated message.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("adcp error ")
	b.WriteString(untrusted.Sanitize(e.Code))
	if e.Recovery != "" {
		b.WriteString(" (")
		b.WriteString(string(e.Recovery))
		b.WriteString(")")
	}
	if m := e.SafeMessage(); m != "" {
		b.WriteString(": ")
		b.WriteString(m)
	}
	if e.RetryAfter > 0 {
		b.WriteString("; retry after ")
		b.WriteString(e.RetryAfter.String())
	}
	return b.String()
}

// Is matches another *Error by code, so errors.Is(err, &Error{Code:
// "RATE_LIMITED"}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t != nil && t.Code != "" && t.Code == e.Code
}

// Action is what to do about the error: retry, surface to the caller or
// escalate to a human.
func (e *Error) Action() Action { return ActionFor(e.Recovery) }

// RawDetails returns the details object as received, or nil.
func (e *Error) RawDetails() json.RawMessage {
	if len(e.Raw) == 0 {
		if raw, ok := e.Details.(json.RawMessage); ok {
			return raw
		}
		return nil
	}
	if v, err := wire.ParseLenient(e.Raw); err == nil {
		if d := v.Get("details"); d.Present() {
			return d.Raw()
		}
	}
	return nil
}
