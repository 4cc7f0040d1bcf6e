package lower

import "github.com/adcpgen/adcpgen/generator/internal/ir"

// wrapNullableRefs makes every value position that holds a type admitting
// null a wire.Nullable, whatever order the types were built in. Lowering
// already wraps a reference when the target's nullability is known; a
// reference made while its target was still being built (a schema that
// refers back to itself) is wrapped here. Union arms stay as they are: the
// union itself admits null then, and decodes it before choosing an arm.
func wrapNullableRefs(types []*ir.Type) {
	for _, t := range types {
		for _, f := range t.Fields {
			f.Type = nullableRef(f.Type)
		}
		for _, p := range t.Patterns {
			p.Type = nullableRef(p.Type)
		}
		if t.Extra.Type != nil {
			t.Extra.Type = nullableRef(t.Extra.Type)
		}
		if t.Underlying != nil {
			t.Underlying = nullableElems(t.Underlying)
		}
		if t.Union != nil {
			for _, a := range t.Union.Arms {
				a.Type = nullableElems(a.Type)
			}
		}
	}
}

// nullableRef wraps r when it names a type that admits null, and its
// elements likewise.
func nullableRef(r *ir.Ref) *ir.Ref {
	r = nullableElems(r)
	if r.Kind == ir.RefNamed && r.Named.Nullable {
		return ir.NullableOf(r)
	}
	return r
}

// nullableElems applies nullableRef to the element of a slice, map or
// nullable, leaving r's own kind alone. It copies rather than edits, since
// refs may be shared.
func nullableElems(r *ir.Ref) *ir.Ref {
	switch r.Kind {
	case ir.RefSlice, ir.RefMap:
		if e := nullableRef(r.Elem); e != r.Elem {
			return &ir.Ref{Kind: r.Kind, Elem: e}
		}
	case ir.RefNullable:
		if e := nullableElems(r.Elem); e != r.Elem {
			return &ir.Ref{Kind: r.Kind, Elem: e}
		}
	}
	return r
}
