package generator

import (
	"errors"
	"runtime/debug"

	"github.com/adcpgen/adcpgen/generator/internal/load"
	"github.com/adcpgen/adcpgen/generator/internal/lower"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// SpecTable is the Spec value the package generated from tree would
// export, without its constructors (NewRequest, NewResponse, NewDetails,
// NewBySchema and the webhook results' New are nil): the same tools, error
// codes, unknown-code policy and schema paths, from the manifest or, for
// trees without one (2.5.3, 3.0.0), derived from the layout exactly as
// Generate derives them. It is for programs that know a version only at
// run time (adcpgen call) and read payloads as JSON. missing lists what
// the tree could not tell, as Result.Missing does.
func SpecTable(tree *spec.Tree) (s *registry.Spec, missing []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, missing, err = nil, nil, &InternalError{Panic: p, Stack: debug.Stack()}
		}
	}()
	if tree == nil {
		return nil, nil, errors.New("generator: no schema tree")
	}
	set, err := load.Load(tree)
	if err != nil {
		return nil, nil, err
	}
	pkg, err := lower.Build(set, lower.Options{})
	if err != nil {
		return nil, nil, err
	}
	r, err := lower.BuildRegistry(set, pkg)
	if err != nil {
		return nil, nil, err
	}
	c := registry.SpecConfig{Version: r.Version, Codes: r.Codes, UnknownRecovery: r.UnknownRecovery, Envelope: r.Envelope}
	for _, t := range r.Tools {
		tool := registry.Tool{Name: t.Name, Protocol: t.Protocol, Mutating: t.Mutating,
			IdempotencyRequired: t.IdempotencyRequired, Deprecated: t.Deprecated, Summary: t.Summary,
			RequestSchema: t.RequestSchema, ResponseSchema: t.ResponseSchema, Envelope: t.Envelope}
		for _, a := range t.Async {
			tool.Async = append(tool.Async, registry.AsyncResponse{Status: a.Status, Schema: a.Schema, Envelope: a.Envelope})
		}
		c.Tools = append(c.Tools, tool)
	}
	for _, w := range r.WebhookResults {
		c.WebhookResults = append(c.WebhookResults, registry.WebhookResult{TaskType: w.TaskType, Schema: w.Schema})
	}
	return registry.NewSpec(c), r.Missing, nil
}
