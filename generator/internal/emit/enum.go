package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
)

// emitEnum writes a defined type with one constant per value. Unknown values
// still decode (readers must ignore what they do not know); exact mode
// rejects them.
func emitEnum(f *jen.File, s *descSet, t *ir.Type) {
	addDoc(f, docBlock(t.Name, t.Title, t.Description, t.Deprecated, schemaRef(t),
		"Values other than the constants below decode too (forward compatibility); IsKnown tells them apart."))
	base := jen.String()
	if t.EnumBase == ir.Int {
		base = jen.Int64()
	}
	f.Type().Id(t.Name).Add(base)

	var consts []jen.Code
	var known []jen.Code
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
		known = append(known, jen.Lit(v.Value.Node.Str))
	}
	f.Const().Defs(consts...)

	desc := jen.Op("&").Id("desc" + t.Name)
	fn := naming.KnownValuesFunc(t)
	values, isKnown := "EnumValues", "Known"
	conv := jen.String()
	if t.EnumBase == ir.Int {
		values, isKnown, conv = "EnumInts", "KnownInt", jen.Int64()
	}
	f.Comment("// " + fn + " lists the values the schema defines, in schema order.")
	f.Func().Id(fn).Params().Index().Id(t.Name).Block(jen.Return(wireQ(values).Index(jen.Id(t.Name)).Call(desc)))
	f.Comment("// IsKnown reports whether v is one of the values the schema defines.")
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("IsKnown").Params().Bool().Block(
		jen.Return(jen.Id("desc" + t.Name).Dot(isKnown).Call(conv.Call(jen.Id("v")))),
	)
	shape := "ShapeString"
	if t.EnumBase == ir.Int {
		shape = "ShapeInt"
	}
	descVar(f, t, kv{"Shape", wireQ(shape)}, kv{"Name", jen.Lit(t.Name)}, kv{"Enum", jen.Index().String().Values(known...)})
	codecMethods(f, t, "v")
}

func enumLit(t *ir.Type, v *ir.EnumValue) jen.Code {
	if t.EnumBase == ir.Int {
		// An untyped constant: int64(16) would not convert to the enum type.
		return jen.Op(strconv.Quote(v.Value.Node.Str)[1 : len(v.Value.Node.Str)+1])
	}
	return jen.Lit(v.Value.Node.Str)
}
