package apidiff

import (
	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// The functions here spell Go types the way package emit declares them,
// from the decisions the IR makes (ir.GoString, Field.Pointer,
// Arm.Pointer); TestGoTypesMatchEmittedSource parses generated code to
// hold them to it.

// namer gives a type's name on the side being rendered. Renames map old
// names to new ones so a field that only follows a rename can be told apart.
type namer func(*ir.Type) string

func plainName(t *ir.Type) string { return t.Name }

// refGo spells a type expression as the generated code does.
func refGo(r *ir.Ref, name namer) string { return ir.GoString(r, name) }

// fieldGo spells a struct field's Go type; "" for a fixed member, which has
// no Go field.
func fieldGo(fl *ir.Field, name namer) string {
	if fl.Fixed {
		return ""
	}
	s := refGo(fl.Type, name)
	if fl.Pointer() {
		s = "*" + s
	}
	return s
}

// fieldShape is what a field looks like in Go and on the wire, for
// comparison and display: the Go type, or the fixed value, plus the const
// a present value must equal.
func fieldShape(fl *ir.Field, name namer) string {
	switch {
	case fl.Fixed && fl.Const != nil:
		return "fixed " + fl.Const.JSON()
	case fl.Fixed:
		return "fixed"
	case fl.Const != nil:
		return fieldGo(fl, name) + " (always " + fl.Const.JSON() + ")"
	}
	return fieldGo(fl, name)
}

// armGo spells a union arm's Go field type.
func armGo(a *ir.Arm, name namer) string {
	s := refGo(a.Type, name)
	if a.Pointer() {
		s = "*" + s
	}
	return s
}

// underlyingGo spells the Go type a defined type is declared over; "" for
// structs and unions, which are declared as struct types.
func underlyingGo(t *ir.Type, name namer) string {
	switch t.Kind {
	case ir.KindEnum:
		if t.EnumBase == ir.Int {
			return "int64"
		}
		return "string"
	case ir.KindScalar, ir.KindSlice, ir.KindMap, ir.KindRaw:
		return refGo(t.Underlying, name)
	}
	return ""
}

var kindNames = map[ir.Kind]string{
	ir.KindStruct: "struct", ir.KindEnum: "enum", ir.KindScalar: "scalar", ir.KindSlice: "slice",
	ir.KindMap: "map", ir.KindUnion: "union", ir.KindRaw: "raw JSON",
}

func kindName(k ir.Kind) string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "unknown kind"
}

// extraGo spells the Go type of the field holding undeclared members; ""
// when the struct rejects them.
// patternGo spells the map of members matching a pattern.
func patternGo(p *ir.PatternField, name namer) string { return "map[string]" + refGo(p.Type, name) }

func extraGo(t *ir.Type, name namer) string {
	switch t.Extra.Mode {
	case ir.ExtraKeep:
		return "map[string]json.RawMessage"
	case ir.ExtraTyped:
		return "map[string]" + refGo(t.Extra.Type, name)
	}
	return ""
}
