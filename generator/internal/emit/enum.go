package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// enumDoc is an enum type's doc comment.
func (s *descSet) enumDoc(t *ir.Type) []string {
	return s.typeDoc(t,
		"Values other than the constants below decode too (forward compatibility); IsKnown tells them apart.")
}

// valueDoc is the doc comment of an enum value's constant.
func valueDoc(v *ir.EnumValue) []string {
	var doc []string
	switch {
	case v.Doc != "":
		doc = commentLines(summarize(v.GoName, v.Doc))
	case v.Deprecated:
		doc = []string{"// " + v.GoName + " is deprecated."}
	}
	if v.Deprecated {
		doc = append(doc, "//", "// Deprecated: the schema marks this value deprecated.")
	}
	return doc
}

// emitEnum writes a defined type with one constant per value. Unknown values
// still decode (readers must ignore what they do not know); exact mode
// rejects them.
func emitEnum(f *jen.File, s *descSet, t *ir.Type) {
	addDoc(f, s.enumDoc(t))
	base := jen.String()
	if t.EnumBase == ir.Int {
		base = jen.Int64()
	}
	f.Type().Id(t.Name).Add(base)

	var consts []jen.Code
	var known []jen.Code
	for _, v := range t.Values {
		consts = append(consts, comments(valueDoc(v))...)
		consts = append(consts, jen.Id(v.GoName).Id(t.Name).Op("=").Add(enumLit(t, v)))
		known = append(known, jen.Lit(v.Value.Node.Str))
	}
	f.Const().Defs(consts...)

	knownValues(f, t, jen.Op("&").Id(s.descName(t)))
	isKnown, conv := "Known", jen.String()
	if t.EnumBase == ir.Int {
		isKnown, conv = "KnownInt", jen.Int64()
	}
	f.Comment("// IsKnown reports whether v is one of the values the schema defines.")
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("IsKnown").Params().Bool().Block(
		jen.Return(jen.Id(s.descName(t)).Dot(isKnown).Call(conv.Call(jen.Id("v")))),
	)
	shape := "ShapeString"
	if t.EnumBase == ir.Int {
		shape = "ShapeInt"
	}
	descVar(f, s, t, kv{"Shape", implQ(shape)}, kv{"Name", jen.Lit(t.Name)}, kv{"Enum", jen.Index().String().Values(known...)})
	codecMethods(f, s, t, "v")
}

// knownValues writes Known<T>Values, reading the enum's Desc.
func knownValues(f *jen.File, t *ir.Type, desc jen.Code) {
	fn := t.KnownValues
	values := "EnumValues"
	if t.EnumBase == ir.Int {
		values = "EnumInts"
	}
	f.Comment("// " + fn + " lists the values the schema defines, in schema order.")
	f.Func().Id(fn).Params().Index().Id(t.Name).Block(jen.Return(implQ(values).Index(jen.Id(t.Name)).Call(desc)))
}

func enumLit(t *ir.Type, v *ir.EnumValue) jen.Code {
	if t.EnumBase == ir.Int {
		// An untyped constant: int64(16) would not convert to the enum type.
		return jen.Op(strconv.Quote(v.Value.Node.Str)[1 : len(v.Value.Node.Str)+1])
	}
	return jen.Lit(v.Value.Node.Str)
}
