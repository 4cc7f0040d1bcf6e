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

const registryPkg = "github.com/adcpgen/adcpgen/runtime/registry"

func registryQ(name string) *jen.Statement { return jen.Qual(registryPkg, name) }

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
		jen.Switch(registryQ("SchemaKey").Call(jen.Id("ref"))).Block(cases...),
		jen.Return(jen.Nil()),
	)
	f.Comment("// SchemaRefs lists the references NewBySchema knows, sorted.")
	f.Func().Id("SchemaRefs").Params().Index().String().Block(jen.Return(jen.Index().String().Values(refs...)))
}

func emitTools(f *jen.File, r *ir.Registry) {
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
			d[jen.Id("Async")] = jen.Index().Add(registryQ("AsyncResponse")).Values(async...)
		}
		tools = append(tools, jen.Values(d))
	}
	f.Var().Id("tools").Op("=").Add(registryQ("Tools")).Values(tools...)
	f.Comment("// ToolTable lists every tool, sorted by name; " + sourceNote(r) + ".")
	f.Func().Id("ToolTable").Params().Add(registryQ("Tools")).Block(
		jen.Return(jen.Append(registryQ("Tools").Parens(jen.Nil()), jen.Id("tools").Op("..."))))
	f.Comment("// ToolByName returns the tool named name.")
	f.Func().Id("ToolByName").Params(jen.Id("name").String()).Params(registryQ("Tool"), jen.Bool()).Block(
		jen.Return(jen.Id("tools").Dot("ByName").Call(jen.Id("name"))))
}

func sourceNote(r *ir.Registry) string {
	return "source: " + strings.TrimSuffix(r.Source, ".")
}

func emitCodes(f *jen.File, r *ir.Registry) {
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
	f.Var().Id("errorCodes").Op("=").Add(registryQ("ErrorCodes")).Values(codes...)
	f.Comment("// ErrorCodeTable lists the standard error codes, sorted; " + sourceNote(r) + ".")
	f.Func().Id("ErrorCodeTable").Params().Add(registryQ("ErrorCodes")).Block(
		jen.Return(jen.Append(registryQ("ErrorCodes").Parens(jen.Nil()), jen.Id("errorCodes").Op("..."))))
	f.Comment("// RecoveryForCode returns the recovery class the spec gives a code.")
	f.Func().Id("RecoveryForCode").Params(jen.Id("code").String()).Params(jen.Qual(registryPkg, "Recovery"), jen.Bool()).Block(
		jen.Return(jen.Id("errorCodes").Dot("Recovery").Call(jen.Id("code"))))
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
