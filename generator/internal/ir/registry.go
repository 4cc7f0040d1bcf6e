package ir

// Registry is what the spec's manifest (or, without one, the tree's layout)
// says about tools and error codes.
type Registry struct {
	// Source says where the registry came from ("schemas/manifest.json", or
	// "derived from the tree layout").
	Source string
	Tools  []*Tool
	Codes  []*ErrorCode
	// DefaultUnknownRecovery is the manifest's recovery for codes it does not
	// list ("" when it says nothing).
	DefaultUnknownRecovery string
	Details                []*DetailsEntry
	// Index maps schema references ("core/error.json#",
	// "core/error.json#/definitions/issue") to their types.
	Index []*IndexEntry
	// Version is the spec version ("" when the tree does not say).
	Version string
	// Missing lists what the tree could not tell, for the report.
	Missing []string
}

// Tool is one AdCP task.
type Tool struct {
	Name       string
	Protocol   string
	Mutating   bool
	Request    *Type
	Response   *Type
	Async      []*AsyncResponse
	Deprecated bool
}

// AsyncResponse is the response type a tool returns for an interim status.
type AsyncResponse struct {
	Status string // "submitted", "working", "input-required"
	Type   *Type
}

// ErrorCode is one standard error code.
type ErrorCode struct {
	Code        string
	Recovery    string // transient, correctable or terminal
	Description string
	Deprecated  bool
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
