package wiredesc

import (
	"strconv"
	"sync/atomic"
)

// Shape is how the engine reads and writes a described type.
type Shape uint8

const (
	ShapeString   Shape = iota + 1 // string, DateTime, Date and defined types over them (string enums too)
	ShapeInt                       // int64 and defined types over it (integer enums too)
	ShapeFloat                     // float64
	ShapeBool                      // bool
	ShapeRaw                       // json.RawMessage
	ShapeStruct                    // a generated struct: Members, KeyPatterns, Extra
	ShapeUnion                     // a generated tagged union: Union
	ShapeSlice                     // []Elem
	ShapeMap                       // map[string]Elem
	ShapeNullable                  // wire.Nullable[Elem]
	// ShapeLate names a generated type by its Go type alone (Go): the
	// engine asks the type's WireDesc for its Desc. Generated code uses it
	// where pointing at the Desc itself would make package initialisation
	// cyclic (recursive types).
	ShapeLate
)

// Desc describes a Go type to the engine. Generated code declares one per
// type, and one per slice, map, nullable or const it uses.
type Desc struct {
	Shape Shape
	// Name is the Go name of a generated type, for messages.
	Name string
	// Go is a nil pointer to the described type, (*T)(nil): the engine
	// reads sizes, offsets and allocates through it. Scalars leave it nil.
	Go any
	// Elem is the element of a slice, map or nullable.
	Elem *Desc
	// Const, on a scalar shape, is the JSON literal the value must equal
	// (compared as JSON, as the schema's const); Value is the Go value
	// stored then (string, int64, float64 or bool).
	Const string
	Value any
	// Enum lists the values an enum defines (string enums: the strings;
	// integer enums: the JSON literals). Exact mode rejects others.
	Enum []string
	// Members are a struct's members in Go field order; KeyPatterns and
	// then Extra take the members none of them names.
	Members     []Member
	KeyPatterns []KeyPattern
	Extra       ExtraMode
	// ExtraMap is the map type ExtraTyped keeps undeclared members in.
	ExtraMap *Desc
	// Union holds a union's arms (in Go field order) and how to pick one.
	Union *Union

	cache atomic.Pointer[Cache]
	ints  atomic.Pointer[[]int64]
}

// Member is one declared member of a struct.
type Member struct {
	Name string // the JSON key
	// Desc describes the value (for a pointer field, what it points to).
	Desc     *Desc
	Required bool
	// Fixed marks a required const with no Go field: checked when
	// decoding, written when encoding. Desc is then the const.
	Fixed bool
}

// KeyPattern keeps the members whose keys Match in a map field (declared
// right after the members, in order).
type KeyPattern struct {
	Match func(key []byte) bool
	Map   *Desc // ShapeMap
}

// ExtraMode says what happens to members a struct does not declare.
type ExtraMode uint8

const (
	// ExtraKeep keeps them as raw JSON in the last field (a
	// map[string]json.RawMessage); exact mode rejects them.
	ExtraKeep ExtraMode = iota
	// ExtraReject rejects them (additionalProperties: false).
	ExtraReject
	// ExtraTyped reads them into the last field, a map of ExtraMap's type.
	ExtraTyped
)

// Cache is what runtime/wire's engine derives from a Desc; this package
// only keeps it (the engine's own type, through unsafe.Pointer).
type Cache struct{ _ [0]func() }

// Cache is where the engine keeps what it derives from t.
func (t *Desc) Cache() *atomic.Pointer[Cache] { return &t.cache }

// Known reports whether the string enum t describes defines s (a
// generated IsKnown).
func (t *Desc) Known(s string) bool {
	for _, v := range t.Enum {
		if v == s {
			return true
		}
	}
	return false
}

// KnownInt reports whether the integer enum t describes defines n.
func (t *Desc) KnownInt(n int64) bool {
	for _, v := range t.Ints() {
		if v == n {
			return true
		}
	}
	return false
}

// Ints returns the values of the integer enum t describes, parsed from
// Enum on first use (a literal such as 2.0 is the integer 2).
func (t *Desc) Ints() []int64 {
	if p := t.ints.Load(); p != nil {
		return *p
	}
	ints := make([]int64, 0, len(t.Enum))
	for _, lit := range t.Enum {
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(lit, 64)
			if ferr != nil {
				panic("wire: integer enum " + t.Name + " lists " + lit)
			}
			n = int64(f)
		}
		ints = append(ints, n)
	}
	t.ints.CompareAndSwap(nil, &ints)
	return *t.ints.Load()
}

// EnumValues lists the values of the string enum t describes, in schema
// order (a generated Known<T>Values).
func EnumValues[T ~string](t *Desc) []T {
	out := make([]T, len(t.Enum))
	for i, v := range t.Enum {
		out[i] = T(v)
	}
	return out
}

// EnumInts lists the values of the integer enum t describes.
func EnumInts[T ~int64](t *Desc) []T {
	ints := t.Ints()
	out := make([]T, len(ints))
	for i, v := range ints {
		out[i] = T(v)
	}
	return out
}
