package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

const (
	wirePkg = "github.com/adcpgen/adcpgen/runtime/wire"
	jsonPkg = "encoding/json"
)

func wireQ(name string) *jen.Statement { return jen.Qual(wirePkg, name) }

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
	switch r.Builtin {
	case ir.String:
		return jen.String()
	case ir.Int:
		return jen.Int64()
	case ir.Float:
		return jen.Float64()
	case ir.Bool:
		return jen.Bool()
	case ir.Raw:
		return jen.Qual(jsonPkg, "RawMessage")
	case ir.DateTime:
		return wireQ("DateTime")
	default:
		return wireQ("Date")
	}
}

// byPointer reports types an optional field holds as *T (absent = nil).
// Slices, maps, raw JSON and unions have a zero value meaning absent.
func byPointer(r *ir.Ref) bool {
	switch r.Kind {
	case ir.RefBuiltin:
		return r.Builtin != ir.Raw
	case ir.RefNamed:
		switch r.Named.Kind {
		case ir.KindStruct, ir.KindEnum, ir.KindScalar:
			return true
		}
	}
	return false
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
