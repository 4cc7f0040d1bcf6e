package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
)

func knownName(t *ir.Type) string { return "known" + t.Name }

// emitEnum writes a defined type with one constant per value. Unknown values
// still decode (readers must ignore what they do not know); exact mode
// rejects them.
func emitEnum(f *jen.File, t *ir.Type) {
	addDoc(f, docBlock(t.Name, t.Title, t.Description, t.Deprecated, schemaRef(t),
		"Values other than the constants below decode too (forward compatibility); IsKnown tells them apart."))
	base := jen.String()
	if t.EnumBase == ir.Int {
		base = jen.Int64()
	}
	f.Type().Id(t.Name).Add(base)

	var consts []jen.Code
	var list, known []jen.Code
	for _, v := range t.Values {
		var doc []string
		if v.Doc != "" {
			doc = commentLines(v.GoName + ": " + v.Doc)
		}
		if v.Deprecated {
			if len(doc) > 0 {
				doc = append(doc, "//")
			}
			doc = append(doc, "// Deprecated: the schema marks this value deprecated.")
		}
		consts = append(consts, comments(doc)...)
		consts = append(consts, jen.Id(v.GoName).Id(t.Name).Op("=").Add(enumLit(t, v)))
		list = append(list, jen.Id(v.GoName))
		known = append(known, jen.Lit(v.Value.Node.Str))
	}
	f.Const().Defs(consts...)

	fn := naming.KnownValuesFunc(t)
	f.Comment("// " + fn + " lists the values the schema defines, in schema order.")
	f.Func().Id(fn).Params().Index().Id(t.Name).Block(jen.Return(jen.Index().Id(t.Name).Values(list...)))
	f.Comment("// IsKnown reports whether v is one of the values the schema defines.")
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("IsKnown").Params().Bool().Block(
		jen.Switch(jen.Id("v")).Block(jen.Case(list...).Block(jen.Return(jen.True()))),
		jen.Return(jen.False()),
	)
	f.Var().Id(knownName(t)).Op("=").Index().String().Values(known...)

	read, value, write := "String", jen.Id("s"), "String"
	if t.EnumBase == ir.Int {
		read, write = "Int", "Int"
	}
	show := jen.Id("s")
	if t.EnumBase == ir.Int {
		show = jen.Qual("strconv", "FormatInt").Call(jen.Id("s"), jen.Lit(10))
	}
	f.Comment("// DecodeWire reads v from d; exact mode rejects unknown values.")
	f.Func().Params(recv(t)).Id("DecodeWire").Params(decoderParam()).Error().Block(
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Id("d").Dot(read).Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("v").Op("=").Id(t.Name).Call(value),
		jen.If(jen.Id("d").Dot("Exact").Call().Op("&&").Op("!").Id("v").Dot("IsKnown").Call()).Block(
			jen.Return(jen.Id("d").Dot("UnknownEnum").Call(show, jen.Id(knownName(t))))),
		jen.Return(jen.Nil()),
	)
	conv := jen.String()
	if t.EnumBase == ir.Int {
		conv = jen.Int64()
	}
	f.Comment("// EncodeWire writes v as JSON.")
	f.Func().Params(recv(t)).Id("EncodeWire").Params(encoderParam()).Block(
		jen.Id("e").Dot(write).Call(conv.Call(jen.Op("*").Id("v"))),
	)
}

func enumLit(t *ir.Type, v *ir.EnumValue) jen.Code {
	if t.EnumBase == ir.Int {
		// An untyped constant: int64(16) would not convert to the enum type.
		return jen.Op(strconv.Quote(v.Value.Node.Str)[1 : len(v.Value.Node.Str)+1])
	}
	return jen.Lit(v.Value.Node.Str)
}
