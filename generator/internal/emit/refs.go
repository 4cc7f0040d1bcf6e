package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

const (
	wirePkg = ir.WirePkg
	implPkg = ir.ImplPkg
	jsonPkg = ir.JSONPkg
)

// wireQ names what users see too (runtime/wire: Unmarshal, Nullable, ...);
// implQ what only generated code uses (runtime/wireimpl: descriptors, the
// version handshake).
func wireQ(name string) *jen.Statement { return jen.Qual(wirePkg, name) }
func implQ(name string) *jen.Statement { return jen.Qual(implPkg, name) }

var builtinNames = map[ir.Builtin]string{
	ir.String: "String", ir.Int: "Int", ir.Float: "Float", ir.Bool: "Bool",
	ir.Raw: "Raw", ir.DateTime: "DateTime", ir.Date: "Date",
}

// goType renders the Go type of a Ref.
func goType(r *ir.Ref) *jen.Statement {
	switch r.Kind {
	case ir.RefNamed:
		return jen.Id(r.Named.Name)
	case ir.RefSlice:
		return jen.Index().Add(goType(r.Elem))
	case ir.RefMap:
		return jen.Map(jen.String()).Add(goType(r.Elem))
	case ir.RefNullable:
		return wireQ("Nullable").Types(goType(r.Elem))
	}
	pkg, name := r.Builtin.Go()
	if pkg == "" {
		return jen.Id(name)
	}
	return jen.Qual(pkg, name)
}

// absentTest renders the condition "field is present" for an optional
// field that is not a pointer.
func presentTest(r *ir.Ref, field *jen.Statement) *jen.Statement {
	switch {
	case r.Kind == ir.RefNullable:
		return jen.Op("!").Add(field).Dot("IsAbsent").Call()
	case r.Kind == ir.RefNamed && r.Named.Kind == ir.KindUnion:
		return jen.Op("!").Add(field).Dot("IsZero").Call()
	}
	return field.Op("!=").Nil()
}
