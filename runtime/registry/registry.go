// Package registry holds the types behind every generated package's tool and
// error-code tables, so the tables of different spec versions share one
// shape and the lookups live in one place.
package registry

import (
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Tool describes one AdCP task and the types it exchanges.
type Tool struct {
	Name     string
	Protocol string
	// Mutating reports a task that changes state on the seller.
	Mutating   bool
	Deprecated bool
	// NewRequest and NewResponse return empty values to decode into.
	NewRequest  func() wire.Value
	NewResponse func() wire.Value
	// Async lists the response types for interim statuses.
	Async []AsyncResponse
}

// AsyncResponse is the response type a tool returns for an interim status.
type AsyncResponse struct {
	Status string
	New    func() wire.Value
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
	// Recovery is transient, correctable or terminal ("" when the spec does
	// not say).
	Recovery    string
	Description string
	Deprecated  bool
}

// ErrorCodes is an error-code table, sorted by code.
type ErrorCodes []ErrorCode

// Recovery returns the recovery class the table gives code.
func (cs ErrorCodes) Recovery(code string) (string, bool) {
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
