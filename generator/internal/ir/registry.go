package ir

import "github.com/adcpgen/adcpgen/runtime/registry"

// Registry is what the spec's manifest (or, without one, the tree's layout)
// says about tools, error codes and webhook results: the content of the
// generated package's Spec value.
type Registry struct {
	// Source says where the registry came from ("schemas/manifest.json", or
	// "derived from the tree layout").
	Source string
	Tools  []*Tool
	// Codes is the error-code table, sorted by code: the runtime's own table
	// type, so the generated package and the runtime cannot disagree on it.
	Codes registry.ErrorCodes
	// UnknownRecovery is the manifest's
	// error_code_policy.default_unknown_recovery ("" when it says nothing).
	UnknownRecovery registry.Recovery
	Details         []*DetailsEntry
	// WebhookResults are the manifest's task_result_resolution entries
	// whose schema has a type, sorted by task type.
	WebhookResults []*WebhookResult
	// Index maps schema references ("core/error.json#",
	// "core/error.json#/definitions/issue") to their types.
	Index []*IndexEntry
	// Version is the spec version ("" when the tree does not say).
	Version string
	// Envelope lists the members of core/protocol-envelope.json, in
	// schema order (nil when the tree has none).
	Envelope []string
	// Missing lists what the tree could not tell, for the report.
	Missing []string
}

// Tool is one AdCP task.
type Tool struct {
	Name                string
	Protocol            string
	Mutating            bool
	IdempotencyRequired bool
	// RequestSchema and ResponseSchema are tree paths.
	RequestSchema  string
	ResponseSchema string
	Request        *Type
	Response       *Type
	Async          []*AsyncResponse
	// Envelope is what the response schema says of the protocol
	// envelope's members.
	Envelope   registry.Envelope
	Deprecated bool
	// Summary is the manifest's one-line description ("" when none).
	Summary string

	// GoName names the tool's descriptor (a field of the generated
	// ToolSet) and ResultName the alias of its task.Result; naming assigns
	// both.
	GoName     string
	ResultName string
}

// AsyncResponse is the response type a tool returns for an interim status.
type AsyncResponse struct {
	Status string // "submitted", "working", "input-required"
	Schema string // tree path
	Type   *Type
	// Envelope is what the schema says of the protocol envelope's
	// members.
	Envelope registry.Envelope
}

// WebhookResult is the terminal result type of one webhook task type.
type WebhookResult struct {
	TaskType string
	Schema   string // tree path
	Type     *Type
}

// DetailsEntry maps an error code to its details type.
type DetailsEntry struct {
	Code string
	Type *Type
	// Alternate marks an extra shape for a code that has a conventional one
	// (accessibility-violation.json for CREATIVE_REJECTED).
	Alternate bool
}

// IndexEntry is one schema reference and its Go type.
type IndexEntry struct {
	Ref  string
	Type *Type
}
