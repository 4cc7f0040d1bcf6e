package ir

// The representation decisions every emitter and the API diff act on: how
// a type expression is spelled in Go, and which values are held by
// pointer. They are made here once.

// Package paths the Go spelling of builtins refers to.
const (
	JSONPkg = "encoding/json"
	WirePkg = "github.com/adcpgen/adcpgen/runtime/wire"
	ImplPkg = "github.com/adcpgen/adcpgen/runtime/wireimpl"
)

// goBuiltins spell the builtins: the package path ("" for predeclared Go
// types) and the name.
var goBuiltins = map[Builtin]struct{ pkg, name string }{
	String:   {"", "string"},
	Int:      {"", "int64"},
	Float:    {"", "float64"},
	Bool:     {"", "bool"},
	Raw:      {JSONPkg, "RawMessage"},
	DateTime: {WirePkg, "DateTime"},
	Date:     {WirePkg, "Date"},
}

// Go returns the package path ("" for a predeclared type) and the name of
// the Go type a builtin is.
func (b Builtin) Go() (pkg, name string) {
	if g, ok := goBuiltins[b]; ok {
		return g.pkg, g.name
	}
	return JSONPkg, "RawMessage"
}

// qualifier is the package name Go code uses for a package path.
var qualifier = map[string]string{JSONPkg: "json", WirePkg: "wire"}

// GoString spells the Go type of r as generated code writes it
// ("[]Product", "wire.Nullable[int64]", "map[string]json.RawMessage"),
// naming each named type with name (nil: its Name).
func GoString(r *Ref, name func(*Type) string) string {
	if r == nil {
		return "json.RawMessage"
	}
	switch r.Kind {
	case RefNamed:
		if name == nil {
			return r.Named.Name
		}
		return name(r.Named)
	case RefSlice:
		return "[]" + GoString(r.Elem, name)
	case RefMap:
		return "map[string]" + GoString(r.Elem, name)
	case RefNullable:
		return "wire.Nullable[" + GoString(r.Elem, name) + "]"
	}
	pkg, n := r.Builtin.Go()
	if pkg == "" {
		return n
	}
	return qualifier[pkg] + "." + n
}

// ByPointer reports the types an optional field or a union arm holds as
// *T, nil meaning absent: scalars, enums and structs. Slices, maps, raw
// JSON, nullables and unions have a zero value that means absent.
func ByPointer(r *Ref) bool {
	if r == nil {
		return false
	}
	switch r.Kind {
	case RefBuiltin:
		return r.Builtin != Raw
	case RefNamed:
		switch r.Named.Kind {
		case KindStruct, KindEnum, KindScalar:
			return true
		}
	}
	return false
}

// Pointer reports a struct field declared as *T: an optional field of a
// type held by pointer, an optional const, or a required field that would
// make a recursive value type (Indirect).
func (f *Field) Pointer() bool {
	return f.Indirect || !f.Required && (f.Const != nil || ByPointer(f.Type))
}

// Pointer reports a union arm whose field is *T.
func (a *Arm) Pointer() bool { return ByPointer(a.Type) }
