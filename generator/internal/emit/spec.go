package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// recoveryConst names the registry constant of a recovery class.
var recoveryConst = map[registry.Recovery]string{
	registry.Transient:   "Transient",
	registry.Correctable: "Correctable",
	registry.Terminal:    "Terminal",
}

// emitSpec writes the exported Spec function, which builds the package's
// registry.Spec once, on first use.
func emitSpec(f *jen.File, r *ir.Registry) {
	cfg := jen.Dict{
		jen.Id("Version"):     jen.Id("SpecVersion"),
		jen.Id("Tools"):       registryQ("Tools").Values(toolValues(r)...),
		jen.Id("Codes"):       registryQ("ErrorCodes").Values(codeValues(r)...),
		jen.Id("NewDetails"):  newDetailsFunc(),
		jen.Id("NewBySchema"): jen.Id("NewBySchema"),
	}
	if r.UnknownRecovery != "" {
		cfg[jen.Id("UnknownRecovery")] = recoveryQ(r.UnknownRecovery)
	}
	if len(r.Envelope) > 0 {
		cfg[jen.Id("Envelope")] = stringList(r.Envelope)
	}
	if len(r.WebhookResults) > 0 {
		var results []jen.Code
		for _, w := range r.WebhookResults {
			results = append(results, jen.Values(jen.Dict{
				jen.Id("TaskType"): jen.Lit(w.TaskType), jen.Id("Schema"): jen.Lit(w.Schema), jen.Id("New"): newValue(w.Type),
			}))
		}
		cfg[jen.Id("WebhookResults")] = jen.Index().Add(registryQ("WebhookResult")).Values(results...)
	}
	// Built on first use, not at initialisation: a package-level value holding
	// NewBySchema would keep every type of the package in every binary that
	// imports it, whether or not the program ever asks for the Spec.
	f.Var().Defs(
		jen.Id("specOnce").Qual("sync", "Once"),
		jen.Id("spec").Op("*").Add(registryQ("Spec")),
	)

	what := "the schemas this package was generated from (their tree names no version)"
	if r.Version != "" {
		what = fmt.Sprintf("the AdCP spec version this package was generated from, %s", r.Version)
	}
	f.Comment("// Spec describes " + what + ":")
	f.Comment("// tools, error codes and their recovery classes, the class of unlisted codes,")
	f.Comment("// error-details and webhook result types. It is the value the runtime takes")
	f.Comment("// wherever behaviour depends on the spec version; it is immutable.")
	f.Comment("// Tables " + sourceNote(r) + ".")
	f.Func().Id("Spec").Params().Op("*").Add(registryQ("Spec")).Block(
		jen.Id("specOnce").Dot("Do").Call(jen.Func().Params().Block(
			jen.Id("spec").Op("=").Add(registryQ("NewSpec")).Call(registryQ("SpecConfig").Values(cfg)),
		)),
		jen.Return(jen.Id("spec")),
	)
}

func sourceNote(r *ir.Registry) string {
	if r.Source == "schemas/manifest.json" {
		return "from " + r.Source
	}
	return strings.TrimSuffix(r.Source, ".")
}

func recoveryQ(rec registry.Recovery) *jen.Statement {
	if name, ok := recoveryConst[rec]; ok {
		return registryQ(name)
	}
	// Lowering lets only the three classes through; anything else stays visible.
	return registryQ("Recovery").Call(jen.Lit(string(rec)))
}

func toolValues(r *ir.Registry) []jen.Code {
	var tools []jen.Code
	for _, t := range r.Tools {
		d := jen.Dict{
			jen.Id("Name"): jen.Lit(t.Name), jen.Id("Protocol"): jen.Lit(t.Protocol),
			jen.Id("RequestSchema"): jen.Lit(t.RequestSchema), jen.Id("ResponseSchema"): jen.Lit(t.ResponseSchema),
			jen.Id("NewRequest"): newValue(t.Request), jen.Id("NewResponse"): newValue(t.Response),
		}
		if t.Mutating {
			d[jen.Id("Mutating")] = jen.True()
		}
		if t.IdempotencyRequired {
			d[jen.Id("IdempotencyRequired")] = jen.True()
		}
		if t.Deprecated {
			d[jen.Id("Deprecated")] = jen.True()
		}
		if t.Summary != "" {
			d[jen.Id("Summary")] = jen.Lit(t.Summary)
		}
		if !t.Envelope.IsZero() {
			d[jen.Id("Envelope")] = envelopeValue(t.Envelope)
		}
		var async []jen.Code
		for _, a := range t.Async {
			ad := jen.Dict{
				jen.Id("Status"): jen.Lit(a.Status), jen.Id("Schema"): jen.Lit(a.Schema), jen.Id("New"): newValue(a.Type),
			}
			if !a.Envelope.IsZero() {
				ad[jen.Id("Envelope")] = envelopeValue(a.Envelope)
			}
			async = append(async, jen.Values(ad))
		}
		if len(async) > 0 {
			d[jen.Id("Async")] = jen.Index().Add(registryQ("AsyncResponse")).Values(async...)
		}
		tools = append(tools, jen.Values(d))
	}
	return tools
}

// envelopeValue is a registry.Envelope literal.
func envelopeValue(e registry.Envelope) jen.Code {
	d := jen.Dict{}
	if len(e.Members) > 0 {
		d[jen.Id("Members")] = stringList(e.Members)
	}
	if len(e.Statuses) > 0 {
		d[jen.Id("Statuses")] = stringList(e.Statuses)
	}
	if len(e.Payload) > 0 {
		d[jen.Id("Payload")] = stringList(e.Payload)
	}
	if e.Closed {
		d[jen.Id("Closed")] = jen.True()
	}
	return registryQ("Envelope").Values(d)
}

// stringList is a []string literal.
func stringList(list []string) jen.Code {
	var vs []jen.Code
	for _, s := range list {
		vs = append(vs, jen.Lit(s))
	}
	return jen.Index().String().Values(vs...)
}

func codeValues(r *ir.Registry) []jen.Code {
	var codes []jen.Code
	for _, c := range r.Codes {
		d := jen.Dict{jen.Id("Code"): jen.Lit(c.Code)}
		if c.Recovery != "" {
			d[jen.Id("Recovery")] = recoveryQ(c.Recovery)
		}
		if c.Description != "" {
			d[jen.Id("Description")] = jen.Lit(c.Description)
		}
		if c.Deprecated {
			d[jen.Id("Deprecated")] = jen.True()
		}
		codes = append(codes, jen.Values(d))
	}
	return codes
}

// newDetailsFunc adapts NewErrorDetails to the Spec's untyped form, keeping
// "no shape" a nil wire.Value.
func newDetailsFunc() jen.Code {
	return jen.Func().Params(jen.Id("code").String()).Add(wireQ("Value")).Block(
		jen.If(jen.Id("d").Op(":=").Id("NewErrorDetails").Call(jen.Id("code")), jen.Id("d").Op("!=").Nil()).Block(
			jen.Return(jen.Id("d"))),
		jen.Return(jen.Nil()),
	)
}
