package registry

import (
	"sort"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// SpecConfig is what a generated package knows about its spec version;
// NewSpec turns it into a Spec.
type SpecConfig struct {
	// Version is the AdCP version ("3.0.26"); the project's own core
	// schemas call themselves "adcpgen-core-N".
	Version string
	Tools   Tools
	Codes   ErrorCodes
	// UnknownRecovery is the manifest's
	// error_code_policy.default_unknown_recovery ("" when it says none, and
	// unknown codes are terminal).
	UnknownRecovery Recovery
	// NewDetails returns an empty value for a code's details, nil when the
	// spec has no details shape for it.
	NewDetails func(code string) wire.Value
	// WebhookResults resolve a webhook's task type to its terminal schema
	// (the manifest's task_result_resolution).
	WebhookResults []WebhookResult
	// NewBySchema returns an empty value of the type generated for a schema
	// reference (see SchemaKey), nil when there is none.
	NewBySchema func(ref string) wire.Value
	// Envelope lists the members of the version's protocol envelope
	// (core/protocol-envelope.json's properties, in schema order); nil when
	// the tree has none.
	Envelope []string
}

// WebhookResult is the terminal result type of one task type.
type WebhookResult struct {
	TaskType string
	Schema   string
	New      func() wire.Value
}

// Spec describes one AdCP spec version. Every generated package exports
// one (its Spec function); the runtime takes it explicitly wherever
// something depends on the version. A Spec is immutable and safe for
// concurrent use.
type Spec struct {
	c      SpecConfig
	tools  map[string]int
	codes  map[string]Recovery
	result map[string]int
}

// NewSpec builds a Spec. It copies and sorts the tables.
func NewSpec(c SpecConfig) *Spec {
	c.Tools = append(Tools(nil), c.Tools...)
	sort.SliceStable(c.Tools, func(i, j int) bool { return c.Tools[i].Name < c.Tools[j].Name })
	c.Codes = append(ErrorCodes(nil), c.Codes...)
	sort.SliceStable(c.Codes, func(i, j int) bool { return c.Codes[i].Code < c.Codes[j].Code })
	c.WebhookResults = append([]WebhookResult(nil), c.WebhookResults...)
	s := &Spec{c: c, tools: map[string]int{}, codes: map[string]Recovery{}, result: map[string]int{}}
	for i, t := range c.Tools {
		s.tools[t.Name] = i
	}
	for _, e := range c.Codes {
		if e.Recovery != "" {
			s.codes[e.Code] = e.Recovery
		}
	}
	for i, r := range c.WebhookResults {
		s.result[r.TaskType] = i
	}
	return s
}

// Version is the AdCP version the package was generated from.
func (s *Spec) Version() string { return s.c.Version }

// Tools returns the tool table, sorted by name (a copy).
func (s *Spec) Tools() Tools { return append(Tools(nil), s.c.Tools...) }

// Tool returns the tool named name.
func (s *Spec) Tool(name string) (Tool, bool) {
	i, ok := s.tools[name]
	if !ok {
		return Tool{}, false
	}
	return s.c.Tools[i], true
}

// Codes returns the error-code table, sorted by code (a copy).
func (s *Spec) Codes() ErrorCodes { return append(ErrorCodes(nil), s.c.Codes...) }

// Recovery returns the recovery class the spec gives a standard code.
func (s *Spec) Recovery(code string) (Recovery, bool) {
	r, ok := s.codes[code]
	return r, ok
}

// UnknownRecovery is the class the spec gives codes it does not list: the
// manifest's default_unknown_recovery, or "" when the spec says nothing.
func (s *Spec) UnknownRecovery() Recovery { return s.c.UnknownRecovery }

// NewDetails returns an empty value to decode a code's details into, or
// nil when the spec has no details shape for the code.
func (s *Spec) NewDetails(code string) wire.Value {
	if s.c.NewDetails == nil {
		return nil
	}
	return s.c.NewDetails(code)
}

// WebhookResult returns the terminal result type of a task type.
func (s *Spec) WebhookResult(taskType string) (WebhookResult, bool) {
	i, ok := s.result[taskType]
	if !ok {
		return WebhookResult{}, false
	}
	return s.c.WebhookResults[i], true
}

// WebhookResults lists every task type's terminal result type (a copy).
func (s *Spec) WebhookResults() []WebhookResult {
	return append([]WebhookResult(nil), s.c.WebhookResults...)
}

// Envelope lists the members of the version's protocol envelope
// (core/protocol-envelope.json), nil when the tree has none (a copy).
func (s *Spec) Envelope() []string { return append([]string(nil), s.c.Envelope...) }

// NewBySchema returns an empty value of the type generated for a schema
// reference, nil when there is none.
func (s *Spec) NewBySchema(ref string) wire.Value {
	if s.c.NewBySchema == nil {
		return nil
	}
	return s.c.NewBySchema(ref)
}
