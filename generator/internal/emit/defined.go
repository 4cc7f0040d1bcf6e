package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// emitDefined writes a named type over another Go type (scalar, slice,
// map, raw JSON), reading and writing through the underlying type.
func emitDefined(f *jen.File, t *ir.Type) {
	doc := docBlock(t.Name, t.Title, t.Description, t.Deprecated, schemaRef(t))
	if t.Kind == ir.KindRaw && t.RawReason != "" {
		doc = append(doc, "//")
		doc = append(doc, commentLines("Raw JSON: "+t.RawReason)...)
	}
	addDoc(f, doc)
	u := t.Underlying
	f.Type().Id(t.Name).Add(goType(u))
	asUnderlying := jen.Parens(jen.Op("*").Add(goType(u))).Call(jen.Id("v"))
	f.Comment("// DecodeWire reads v from d strictly (see package wire).")
	f.Func().Params(recv(t)).Id("DecodeWire").Params(decoderParam()).Error().Block(
		jen.Return(readCall(u, asUnderlying.Clone())),
	)
	f.Comment("// EncodeWire writes v as JSON.")
	f.Func().Params(recv(t)).Id("EncodeWire").Params(encoderParam()).Block(
		writeCall(u, asUnderlying.Clone()),
	)
	if u.Kind == ir.RefBuiltin && (u.Builtin == ir.DateTime || u.Builtin == ir.Date) {
		base := "DateTime"
		if u.Builtin == ir.Date {
			base = "Date"
		}
		f.Comment("// Time parses v; the string itself is kept as received.")
		f.Func().Params(jen.Id("v").Id(t.Name)).Id("Time").Params().Params(jen.Qual("time", "Time"), jen.Error()).Block(
			jen.Return(wireQ(base).Call(jen.Id("v")).Dot("Time").Call()),
		)
	}
}
