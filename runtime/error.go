package runtime

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Error is an AdCP application error (the `adcp_error` object).
//
// Buyers get one from extraction: every field is read leniently from the
// object as received (wrong-typed fields are left empty), Recovery is the
// resolved class, RetryAfter the normalised delay, and Raw keeps the object
// byte for byte. Sellers build one and pass it to the builders in seller.go.
//
// Every string here is seller-controlled. Route decisions through Code and
// Recovery only; use SafeMessage, SafeSuggestion or LLMContext before text
// reaches a model, and never use Field as a path into anything.
type Error struct {
	Code    string
	Message string
	// Recovery is the class the buyer acts on: the sent `recovery` when it is
	// transient, correctable or terminal, terminal for any other sent value,
	// else the code table's class (unknown codes: terminal by default).
	Recovery Recovery
	// RetryAfter is `retry_after` rounded up to a whole second and clamped to
	// [1s, 1h]; 0 when absent, non-numeric or non-finite.
	RetryAfter time.Duration
	// Field is the request field the error is about, for display only.
	Field      string
	Suggestion string
	Issues     []Issue
	// Details holds the typed details value for the code (see
	// DetailsFactory), or the raw JSON (json.RawMessage) when no typed
	// decoder exists for the code or it rejected the object. nil when absent.
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

// Issue is one entry of an error's `issues` list.
type Issue struct {
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
	b.WriteString(Sanitize(e.Code))
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

// DetailsFactory returns a fresh value to decode a code's `details` into,
// or nil when the code has no typed details. Generated AdCP packages provide
// one (NewErrorDetails); its decoders are strict, so prototype keys or
// duplicate keys in details leave Details raw with DetailsErr set.
type DetailsFactory func(code string) json.Unmarshaler

// DetailsFrom adapts a generated package's constructor, which returns the
// package's own details interface, to a DetailsFactory:
//
//	runtime.DefaultDetails = runtime.DetailsFrom(adcp.NewErrorDetails)
//
// A nil result (interface or pointer) means the code has no typed details.
func DetailsFrom[D json.Unmarshaler](newDetails func(code string) D) DetailsFactory {
	return func(code string) json.Unmarshaler {
		d := newDetails(code)
		if v := reflect.ValueOf(d); !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil()) {
			return nil
		}
		return d
	}
}

// Error-object limits from the transport-error specification.
const (
	// MaxErrorBytes bounds the compact JSON text of an adcp_error object.
	MaxErrorBytes = 4096
	// MaxCodeLength bounds `code`, in UTF-16 code units as JavaScript counts.
	MaxCodeLength = 64
)

// errorReject says why an adcp_error candidate failed validation.
type errorReject uint8

const (
	rejectNone errorReject = iota
	rejectNotObject
	rejectCode
	rejectTooLarge
)

func (r errorReject) String() string {
	switch r {
	case rejectNotObject:
		return "adcp_error is not an object"
	case rejectCode:
		return "adcp_error code is not a string of 1-64 characters"
	case rejectTooLarge:
		return "adcp_error is larger than " + strconv.Itoa(MaxErrorBytes) + " bytes"
	}
	return ""
}

// validateError is the seeds' validate(): an object whose `code` is a
// string of 1-64 characters and whose compact JSON text is at most 4096
// bytes.
func validateError(ae jval) errorReject {
	if !ae.isObject() {
		return rejectNotObject
	}
	code, ok := ae.get("code").str()
	if !ok || code == "" || utf16Len(code) > MaxCodeLength {
		return rejectCode
	}
	if overCap(ae, MaxErrorBytes) {
		return rejectTooLarge
	}
	return rejectNone
}

// buildError reads a validated adcp_error object. It never fails: fields of
// the wrong type are left empty and Raw keeps everything.
func (x Extractor) buildError(ae jval, path string) *Error {
	code, _ := ae.get("code").str()
	e := &Error{Code: code, Raw: append(json.RawMessage(nil), ae...), Path: path}
	e.Message, _ = ae.get("message").str()
	e.Field, _ = ae.get("field").str()
	e.Suggestion, _ = ae.get("suggestion").str()
	e.Recovery = resolveRecovery(ae.get("recovery"), code, x.codes(), x.UnknownRecovery)
	if f, ok := ae.get("retry_after").number(); ok {
		e.RetryAfter, _ = NormalizeRetryAfter(f)
	}
	ae.get("issues").elems(func(it jval) bool {
		if it.isObject() {
			var is Issue
			is.Pointer, _ = it.get("pointer").str()
			is.Message, _ = it.get("message").str()
			is.Keyword, _ = it.get("keyword").str()
			is.SchemaPath, _ = it.get("schemaPath").str()
			is.SchemaID, _ = it.get("schema_id").str()
			e.Issues = append(e.Issues, is)
		}
		return true
	})
	if d := ae.get("details"); d.present() && !d.isNull() {
		raw := append(json.RawMessage(nil), d...)
		e.Details = raw
		if f := x.details(); f != nil {
			if typed := f(code); typed != nil {
				if err := typed.UnmarshalJSON(raw); err != nil {
					e.DetailsErr = err
				} else {
					e.Details = typed
				}
			}
		}
	}
	return e
}

// RawDetails returns the details object as received, or nil.
func (e *Error) RawDetails() json.RawMessage {
	if len(e.Raw) == 0 {
		if raw, ok := e.Details.(json.RawMessage); ok {
			return raw
		}
		return nil
	}
	if v, err := parseDocument(e.Raw); err == nil {
		if d := v.get("details"); d.present() {
			return d.raw()
		}
	}
	return nil
}
