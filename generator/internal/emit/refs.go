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

// reader renders an expression of type func(*T, *wire.Decoder) error.
func reader(r *ir.Ref) *jen.Statement {
	switch r.Kind {
	case ir.RefNamed:
		return jen.Parens(jen.Op("*").Id(r.Named.Name)).Dot("DecodeWire")
	case ir.RefBuiltin:
		if r.Const != nil {
			return constReader(r)
		}
		return wireQ("Read" + builtinNames[r.Builtin])
	}
	p := jen.Id("p")
	return jen.Func().Params(p.Clone().Op("*").Add(goType(r)), jen.Id("d").Op("*").Add(wireQ("Decoder"))).Error().Block(
		jen.Return(readCall(r, p.Clone())),
	)
}

// readCall renders the call that reads into the place *ptr (ptr is a
// pointer expression).
func readCall(r *ir.Ref, ptr *jen.Statement) *jen.Statement {
	d := jen.Id("d")
	switch r.Kind {
	case ir.RefSlice:
		return wireQ("ReadSlice").Call(d, ptr, reader(r.Elem))
	case ir.RefMap:
		return wireQ("ReadMap").Call(d, ptr, reader(r.Elem))
	case ir.RefNullable:
		return wireQ("ReadNullable").Call(d, ptr, reader(r.Elem))
	}
	return reader(r).Call(ptr, d)
}

// readInto renders reading into an addressable place (a field).
func readInto(r *ir.Ref, place *jen.Statement) *jen.Statement {
	if r.Kind == ir.RefNamed {
		return place.Dot("DecodeWire").Call(jen.Id("d"))
	}
	return readCall(r, jen.Op("&").Add(place))
}

// writeFrom renders writing an addressable place, or, when isPtr, the value
// a pointer expression points at.
func writeFrom(r *ir.Ref, place *jen.Statement, isPtr bool) *jen.Statement {
	if r.Kind == ir.RefNamed {
		return place.Dot("EncodeWire").Call(jen.Id("e"))
	}
	if isPtr {
		return writeCall(r, place)
	}
	return writeCall(r, jen.Op("&").Add(place))
}

// writer renders an expression of type func(*T, *wire.Encoder).
func writer(r *ir.Ref) *jen.Statement {
	switch r.Kind {
	case ir.RefNamed:
		return jen.Parens(jen.Op("*").Id(r.Named.Name)).Dot("EncodeWire")
	case ir.RefBuiltin:
		return wireQ("Write" + builtinNames[r.Builtin])
	}
	p := jen.Id("p")
	return jen.Func().Params(p.Clone().Op("*").Add(goType(r)), jen.Id("e").Op("*").Add(wireQ("Encoder"))).Block(
		writeCall(r, p.Clone()),
	)
}

// writeCall renders the statement that writes the value at pointer ptr.
func writeCall(r *ir.Ref, ptr *jen.Statement) *jen.Statement {
	e := jen.Id("e")
	switch r.Kind {
	case ir.RefSlice:
		return wireQ("WriteSlice").Call(e, jen.Op("*").Add(ptr), writer(r.Elem))
	case ir.RefMap:
		return wireQ("WriteMap").Call(e, jen.Op("*").Add(ptr), writer(r.Elem))
	case ir.RefNullable:
		return wireQ("WriteNullable").Call(e, ptr, writer(r.Elem))
	}
	return writer(r).Call(ptr, e)
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
