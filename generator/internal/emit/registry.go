package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// newValue renders func() wire.Value { return new(T) }.
func newValue(t *ir.Type) jen.Code {
	return jen.Func().Params().Add(wireQ("Value")).Block(jen.Return(jen.New(jen.Id(t.Name))))
}

// emitRegistry writes the package-level helpers: Decode/DecodeExact, the
// schema index, the tool and error-code tables and the details map.
func emitRegistry(f *jen.File, r *ir.Registry) {
	f.Comment("// SpecVersion is the AdCP version these types were generated from (\"\" when the tree did not say).")
	f.Const().Id("SpecVersion").Op("=").Lit(r.Version)

	f.Comment("// Decode decodes data into v strictly: see package wire for what is rejected.")
	f.Func().Id("Decode").Params(jen.Id("data").Index().Byte(), jen.Id("v").Add(wireQ("Decodable"))).Error().Block(
		jen.Return(wireQ("Unmarshal").Call(jen.Id("data"), jen.Id("v"))))
	f.Comment("// DecodeExact decodes like Decode and also rejects unknown fields and enum values;")
	f.Comment("// sellers use it to test their own output.")
	f.Func().Id("DecodeExact").Params(jen.Id("data").Index().Byte(), jen.Id("v").Add(wireQ("Decodable"))).Error().Block(
		jen.Return(wireQ("UnmarshalExact").Call(jen.Id("data"), jen.Id("v"))))

	emitIndex(f, r)
	emitTools(f, r)
	emitCodes(f, r)
	emitDetails(f, r)
}

func emitIndex(f *jen.File, r *ir.Registry) {
	var cases []jen.Code
	var refs []jen.Code
	for _, e := range r.Index {
		cases = append(cases, jen.Case(jen.Lit(e.Ref)).Block(jen.Return(jen.New(jen.Id(e.Type.Name)))))
		refs = append(refs, jen.Lit(e.Ref))
	}
	f.Comment("// NewBySchema returns an empty value of the type generated for a schema, named by")
	f.Comment("// tree path (\"core/error.json\"), path and pointer (\"core/error.json#/definitions/x\")")
	f.Comment("// or $id in either published style; nil when no type was generated for it.")
	f.Func().Id("NewBySchema").Params(jen.Id("ref").String()).Add(wireQ("Value")).Block(
		jen.Switch(jen.Id("schemaKey").Call(jen.Id("ref"))).Block(cases...),
		jen.Return(jen.Nil()),
	)
	f.Comment("// SchemaRefs lists the references NewBySchema knows, sorted.")
	f.Func().Id("SchemaRefs").Params().Index().String().Block(jen.Return(jen.Index().String().Values(refs...)))
	f.Comment("// schemaKey turns a $id or path into \"path#pointer\".")
	f.Func().Id("schemaKey").Params(jen.Id("ref").String()).String().Block(
		jen.If(jen.List(jen.Id("_"), jen.Id("rest"), jen.Id("ok")).Op(":=").Qual("strings", "Cut").Call(jen.Id("ref"), jen.Lit("://")), jen.Id("ok")).Block(
			jen.Id("ref").Op("=").Id("rest"),
			jen.If(jen.Id("i").Op(":=").Qual("strings", "IndexByte").Call(jen.Id("ref"), jen.LitRune('/')), jen.Id("i").Op(">=").Lit(0)).Block(
				jen.Id("ref").Op("=").Id("ref").Index(jen.Id("i"), jen.Empty())),
		),
		jen.If(jen.List(jen.Id("rest"), jen.Id("ok")).Op(":=").Qual("strings", "CutPrefix").Call(jen.Id("ref"), jen.Lit("/schemas/")), jen.Id("ok")).Block(
			jen.If(jen.List(jen.Id("_"), jen.Id("p"), jen.Id("found")).Op(":=").Qual("strings", "Cut").Call(jen.Id("rest"), jen.Lit("/")), jen.Id("found")).Block(
				jen.Id("ref").Op("=").Id("p")),
		),
		jen.Id("ref").Op("=").Qual("strings", "TrimPrefix").Call(jen.Id("ref"), jen.Lit("/")),
		jen.If(jen.Op("!").Qual("strings", "Contains").Call(jen.Id("ref"), jen.Lit("#"))).Block(jen.Id("ref").Op("+=").Lit("#")),
		jen.Return(jen.Id("ref")),
	)
}

func emitTools(f *jen.File, r *ir.Registry) {
	f.Comment("// ToolInfo describes one AdCP task and the types it exchanges.")
	f.Type().Id("ToolInfo").Struct(
		jen.Id("Name").String(),
		jen.Id("Protocol").String(),
		jen.Comment("// Mutating reports a task that changes state on the seller."),
		jen.Id("Mutating").Bool(),
		jen.Id("Deprecated").Bool(),
		jen.Comment("// NewRequest and NewResponse return empty values to decode into."),
		jen.Id("NewRequest").Func().Params().Add(wireQ("Value")),
		jen.Id("NewResponse").Func().Params().Add(wireQ("Value")),
		jen.Comment("// Async lists the response types for interim statuses."),
		jen.Id("Async").Index().Id("AsyncResponseInfo"),
	)
	f.Comment("// AsyncResponseInfo is the response type a tool returns for an interim status.")
	f.Type().Id("AsyncResponseInfo").Struct(
		jen.Id("Status").String(),
		jen.Id("New").Func().Params().Add(wireQ("Value")),
	)
	var tools []jen.Code
	for _, t := range r.Tools {
		var async []jen.Code
		for _, a := range t.Async {
			async = append(async, jen.Values(jen.Dict{jen.Id("Status"): jen.Lit(a.Status), jen.Id("New"): newValue(a.Type)}))
		}
		d := jen.Dict{
			jen.Id("Name"): jen.Lit(t.Name), jen.Id("Protocol"): jen.Lit(t.Protocol),
			jen.Id("NewRequest"): newValue(t.Request), jen.Id("NewResponse"): newValue(t.Response),
		}
		if t.Mutating {
			d[jen.Id("Mutating")] = jen.True()
		}
		if t.Deprecated {
			d[jen.Id("Deprecated")] = jen.True()
		}
		if len(async) > 0 {
			d[jen.Id("Async")] = jen.Index().Id("AsyncResponseInfo").Values(async...)
		}
		tools = append(tools, jen.Values(d))
	}
	f.Var().Id("tools").Op("=").Index().Id("ToolInfo").Values(tools...)
	f.Comment("// ToolTable lists every tool, sorted by name; " + sourceNote(r) + ".")
	f.Func().Id("ToolTable").Params().Index().Id("ToolInfo").Block(
		jen.Return(jen.Append(jen.Index().Id("ToolInfo").Parens(jen.Nil()), jen.Id("tools").Op("..."))))
	f.Comment("// ToolByName returns the tool named name.")
	f.Func().Id("ToolByName").Params(jen.Id("name").String()).Params(jen.Id("ToolInfo"), jen.Bool()).Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("t")).Op(":=").Range().Id("tools")).Block(
			jen.If(jen.Id("t").Dot("Name").Op("==").Id("name")).Block(jen.Return(jen.Id("t"), jen.True()))),
		jen.Return(jen.Id("ToolInfo").Values(), jen.False()),
	)
}

func sourceNote(r *ir.Registry) string {
	return "source: " + strings.TrimSuffix(r.Source, ".")
}

func emitCodes(f *jen.File, r *ir.Registry) {
	f.Comment("// ErrorCodeInfo is one standard error code and its recovery class.")
	f.Type().Id("ErrorCodeInfo").Struct(
		jen.Id("Code").String(),
		jen.Comment("// Recovery is transient, correctable or terminal (\"\" when the spec does not say)."),
		jen.Id("Recovery").String(),
		jen.Id("Description").String(),
		jen.Id("Deprecated").Bool(),
	)
	var codes []jen.Code
	for _, c := range r.Codes {
		d := jen.Dict{jen.Id("Code"): jen.Lit(c.Code), jen.Id("Recovery"): jen.Lit(c.Recovery)}
		if c.Description != "" {
			d[jen.Id("Description")] = jen.Lit(c.Description)
		}
		if c.Deprecated {
			d[jen.Id("Deprecated")] = jen.True()
		}
		codes = append(codes, jen.Values(d))
	}
	f.Var().Id("errorCodes").Op("=").Index().Id("ErrorCodeInfo").Values(codes...)
	f.Comment("// ErrorCodeTable lists the standard error codes, sorted; " + sourceNote(r) + ".")
	f.Func().Id("ErrorCodeTable").Params().Index().Id("ErrorCodeInfo").Block(
		jen.Return(jen.Append(jen.Index().Id("ErrorCodeInfo").Parens(jen.Nil()), jen.Id("errorCodes").Op("..."))))
	f.Comment("// RecoveryForCode returns the recovery class the spec gives a code.")
	f.Func().Id("RecoveryForCode").Params(jen.Id("code").String()).Params(jen.String(), jen.Bool()).Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Id("errorCodes")).Block(
			jen.If(jen.Id("c").Dot("Code").Op("==").Id("code").Op("&&").Id("c").Dot("Recovery").Op("!=").Lit("")).Block(
				jen.Return(jen.Id("c").Dot("Recovery"), jen.True()))),
		jen.Return(jen.Lit(""), jen.False()),
	)
	f.Comment("// DefaultUnknownRecovery is the recovery class the spec gives codes it does not list")
	f.Comment("// (\"\" when it says nothing).")
	f.Const().Id("DefaultUnknownRecovery").Op("=").Lit(r.DefaultUnknownRecovery)
}

func emitDetails(f *jen.File, r *ir.Registry) {
	f.Comment("// ErrorDetails is implemented by the error-details types.")
	f.Type().Id("ErrorDetails").Interface(
		wireQ("Value"),
		jen.Qual(jsonPkg, "Marshaler"),
		jen.Qual(jsonPkg, "Unmarshaler"),
		jen.Id("isErrorDetails").Params(),
	)
	var cases []jen.Code
	var codes []jen.Code
	marked := map[*ir.Type]bool{}
	for _, d := range r.Details {
		if !marked[d.Type] {
			marked[d.Type] = true
			f.Func().Params(jen.Op("*").Id(d.Type.Name)).Id("isErrorDetails").Params().Block()
		}
		if d.Alternate {
			continue
		}
		cases = append(cases, jen.Case(jen.Lit(d.Code)).Block(jen.Return(jen.New(jen.Id(d.Type.Name)))))
		codes = append(codes, jen.Lit(d.Code))
	}
	f.Comment("// NewErrorDetails returns an empty details value for an error code, or nil when")
	f.Comment("// the spec has no details shape for it.")
	f.Func().Id("NewErrorDetails").Params(jen.Id("code").String()).Id("ErrorDetails").Block(
		jen.Switch(jen.Id("code")).Block(cases...),
		jen.Return(jen.Nil()),
	)
	f.Comment("// ErrorDetailsCodes lists the codes NewErrorDetails knows, sorted.")
	f.Func().Id("ErrorDetailsCodes").Params().Index().String().Block(jen.Return(jen.Index().String().Values(codes...)))
}
