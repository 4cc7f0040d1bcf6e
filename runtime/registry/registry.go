// Package registry describes one AdCP spec version as a generated package
// exports it: tools, error codes and their recovery classes, error-details
// types, webhook result types, and which members of the protocol envelope
// each payload schema carries (Envelope), in one immutable Spec value.
package registry

import (
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Recovery is an AdCP error's recovery class.
type Recovery string

const (
	// Transient: retry after a delay (rate limit, service unavailable).
	Transient Recovery = "transient"
	// Correctable: the caller must change the request.
	Correctable Recovery = "correctable"
	// Terminal: a human must act; never retry.
	Terminal Recovery = "terminal"
)

// Valid reports whether r is one of the three classes.
func (r Recovery) Valid() bool {
	return r == Transient || r == Correctable || r == Terminal
}

// Tool describes one AdCP task and the types it exchanges.
type Tool struct {
	Name     string
	Protocol string
	// Mutating reports a task that changes state on the seller.
	Mutating bool
	// IdempotencyRequired reports a task whose requests must carry an
	// idempotency_key (the manifest's idempotency_requirement "required").
	IdempotencyRequired bool
	Deprecated          bool
	// Summary is the manifest's one-line description of the tool.
	Summary string
	// RequestSchema and ResponseSchema are tree paths
	// ("media-buy/get-products-request.json").
	RequestSchema  string
	ResponseSchema string
	// NewRequest and NewResponse return empty values to decode into.
	NewRequest  func() wire.Value
	NewResponse func() wire.Value
	// Async lists the response types for interim statuses.
	Async []AsyncResponse
	// Envelope is what the response schema says of the protocol
	// envelope's members (see EnvelopeFor).
	Envelope Envelope
}

// AsyncResponse is the response type a tool returns for an interim status.
type AsyncResponse struct {
	// Status is "submitted", "working" or "input-required".
	Status string
	Schema string
	New    func() wire.Value
	// Envelope is what the schema says of the protocol envelope's
	// members.
	Envelope Envelope
}

// AsyncFor returns the response type for an interim status.
func (t Tool) AsyncFor(status string) (AsyncResponse, bool) {
	for _, a := range t.Async {
		if a.Status == status {
			return a, true
		}
	}
	return AsyncResponse{}, false
}

// Tools is a tool table, sorted by name.
type Tools []Tool

// ByName returns the tool named name.
func (ts Tools) ByName(name string) (Tool, bool) {
	for _, t := range ts {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// ErrorCode is one standard error code and its recovery class.
type ErrorCode struct {
	Code string
	// Recovery is the class the spec gives the code ("" when it says none).
	Recovery    Recovery
	Description string
	Deprecated  bool
}

// ErrorCodes is an error-code table, sorted by code.
type ErrorCodes []ErrorCode

// Recovery returns the recovery class the table gives code.
func (cs ErrorCodes) Recovery(code string) (Recovery, bool) {
	for _, c := range cs {
		if c.Code == code && c.Recovery != "" {
			return c.Recovery, true
		}
	}
	return "", false
}

// SchemaKey turns a schema reference into "path#pointer": a tree path
// ("core/error.json"), a path with a pointer, or a $id in either published
// style ("/schemas/3.1.19/core/error.json",
// "https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/error.json#/x").
func SchemaKey(ref string) string {
	if _, rest, ok := strings.Cut(ref, "://"); ok {
		ref = rest
		if i := strings.IndexByte(ref, '/'); i >= 0 {
			ref = ref[i:]
		}
	}
	if rest, ok := strings.CutPrefix(ref, "/schemas/"); ok {
		if _, p, found := strings.Cut(rest, "/"); found {
			ref = p
		}
	}
	ref = strings.TrimPrefix(ref, "/")
	if !strings.Contains(ref, "#") {
		ref += "#"
	}
	return ref
}
