package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// emitDefined writes a named type over another Go type (scalar, slice,
// map, raw JSON), reading and writing through the underlying type.
func emitDefined(f *jen.File, s *descSet, t *ir.Type) {
	addDoc(f, s.definedDoc(t))
	u := t.Underlying
	f.Type().Id(t.Name).Add(goType(u))
	var items []kv
	switch u.Kind {
	case ir.RefSlice, ir.RefMap:
		shape := map[ir.RefKind]string{ir.RefSlice: "ShapeSlice", ir.RefMap: "ShapeMap"}[u.Kind]
		items = []kv{{"Shape", implQ(shape)}, {"Name", jen.Lit(t.Name)}, {"Go", goTypeOf(jen.Id(t.Name))}, {"Elem", s.ref(s.named[t], u.Elem)}}
	case ir.RefBuiltin:
		if u.Const != nil {
			items = append(constFields(u.Const, constShape(u.Const, u)), kv{"Name", jen.Lit(t.Name)})
		} else {
			items = []kv{{"Shape", implQ("Shape" + builtinShape(u.Builtin))}, {"Name", jen.Lit(t.Name)}}
		}
	default:
		panic("emit: defined type " + t.Name + " over an unexpected type")
	}
	descVar(f, s, t, items...)
	codecMethods(f, s, t, "v")
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

// definedDoc is a defined type's doc comment.
func (s *descSet) definedDoc(t *ir.Type) []string {
	doc := s.typeDoc(t)
	if t.Kind == ir.KindRaw && t.RawReason != "" {
		doc = append(doc, "//")
		doc = append(doc, commentLines("Raw JSON: "+t.RawReason)...)
	}
	return doc
}
