package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/runtime/wireimpl"
)

// newValue renders func() wire.Value { return new(T) }.
func newValue(t *ir.Type) jen.Code {
	return jen.Func().Params().Add(wireQ("Value")).Block(jen.Return(jen.New(jen.Id(t.Name))))
}

// emitRegistry writes the package-level helpers: the runtime handshake,
// Decode/DecodeExact, the schema index, the details map and the Spec value.
func emitRegistry(f *jen.File, r *ir.Registry) {
	emitHandshake(f, wireimpl.GenVersion)
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
	emitDetails(f, r)
	emitSpec(f, r)
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
