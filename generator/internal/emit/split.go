package emit

import (
	"slices"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// The compiler's peak memory grows with the number of functions in a
// package, and a whole spec version has some twenty thousand of them (a
// handful per type: the codec and JSON methods, the pointer wrappers of the
// value methods, enum and union helpers). So when the generator is told
// the package's import path, a large package is compiled in two halves:
// a base package under SplitDir declares about half of the types (a set
// closed under references, leaves first: enums, then the types built from
// them) with all their methods, and the main package declares the rest
// and re-exports every base type by alias, with its constants, union
// constructors and Known<T>Values. The API is the same (adcp.Product,
// adcp.TaskStatusCompleted, adcp.NewBrandRefURL); only %T and reflection
// name the base package.

// SplitDir is where the base package is written, relative to the main
// package's directory.
const SplitDir = "internal/types"

const (
	basePackage = "types"
	baseDocFile = "doc_gen.go"
	// baseShare is the part of the functions the base package takes; the
	// main package also holds the re-exports and the registry.
	baseShare = 0.65
)

// split is which types the base package declares.
type split struct {
	path string // its import path
	base map[*ir.Type]bool
}

// planSplit fills the base package in dependency order, leaves first,
// until it holds baseShare of the functions. Error-details types stay in
// the main package (the registry declares a marker method on them), and
// so does everything that refers to them.
func planSplit(pkg *ir.Package, path string) *split {
	types := append([]*ir.Type(nil), pkg.Types...)
	sort.Slice(types, func(i, j int) bool { return types[i].Name < types[j].Name })
	deps := map[*ir.Type][]*ir.Type{}
	users := map[*ir.Type][]*ir.Type{}
	for _, t := range types {
		for _, r := range typeRefs(t) {
			for _, d := range namedIn(r) {
				deps[t] = append(deps[t], d)
				users[d] = append(users[d], t)
			}
		}
	}
	pinned := map[*ir.Type]bool{}
	var pin func(t *ir.Type)
	pin = func(t *ir.Type) {
		if pinned[t] {
			return
		}
		pinned[t] = true
		for _, u := range users[t] {
			pin(u)
		}
	}
	if pkg.Registry != nil {
		for _, d := range pkg.Registry.Details {
			pin(d.Type)
		}
	}
	total := 0
	for _, t := range types {
		total += weight(t)
	}
	s := &split{path: path, base: map[*ir.Type]bool{}}
	filled := 0
	for _, comp := range components(types, func(t *ir.Type) []*ir.Type { return deps[t] }) {
		if float64(filled) >= baseShare*float64(total) {
			break
		}
		ok := true
		for _, t := range comp {
			if pinned[t] {
				ok = false
			}
			for _, d := range deps[t] {
				if !s.base[d] && !slices.Contains(comp, d) {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		for _, t := range comp {
			s.base[t] = true
			filled += weight(t)
		}
	}
	return s
}

// weight counts the functions a type brings: WireDesc, MarshalJSON with
// its pointer wrapper, UnmarshalJSON, and the value methods of enums
// (IsKnown) and unions (Kind, Variant, IsZero, and the String of their Kind
// type) with their wrappers.
func weight(t *ir.Type) int {
	switch t.Kind {
	case ir.KindEnum:
		return 6
	case ir.KindUnion:
		return 12
	}
	return 4
}

// namedIn lists the named types a type expression refers to directly.
func namedIn(r *ir.Ref) []*ir.Type {
	switch r.Kind {
	case ir.RefNamed:
		return []*ir.Type{r.Named}
	case ir.RefSlice, ir.RefMap, ir.RefNullable:
		return namedIn(r.Elem)
	}
	return nil
}

// emitReexport declares, in the main package, what re-exports a base
// type: an alias with the type's documentation, and the enum constants,
// union kinds, constructors and Known<T>Values the base package leaves to
// it.
func emitReexport(f *jen.File, s *descSet, t *ir.Type) {
	switch t.Kind {
	case ir.KindEnum:
		addDoc(f, s.enumDoc(t))
	case ir.KindUnion:
		addDoc(f, s.unionDoc(t))
	case ir.KindStruct:
		addDoc(f, s.structDoc(t))
	default:
		addDoc(f, s.definedDoc(t))
	}
	f.Type().Id(t.Name).Op("=").Qual(s.basePath, t.Name)
	switch t.Kind {
	case ir.KindEnum:
		var consts []jen.Code
		for _, v := range t.Values {
			consts = append(consts, comments(valueDoc(v))...)
			consts = append(consts, jen.Id(v.GoName).Op("=").Qual(s.basePath, v.GoName))
		}
		f.Const().Defs(consts...)
		knownValues(f, t, jen.Op("&").Qual(s.basePath, s.descName(t)))
	case ir.KindUnion:
		u := t.Union
		f.Comment("// " + u.KindType + " names an arm of " + t.Name + "; the zero value means no arm is set.")
		f.Type().Id(u.KindType).Op("=").Qual(s.basePath, u.KindType)
		var consts []jen.Code
		for _, a := range u.Arms {
			consts = append(consts, jen.Id(a.KindConst).Op("=").Qual(s.basePath, a.KindConst))
		}
		f.Const().Defs(consts...)
		unionConstructors(f, t)
	}
}

// unionConstructors writes New<Union><Arm> for every arm.
func unionConstructors(f *jen.File, t *ir.Type) {
	for _, a := range t.Union.Arms {
		name := a.Constructor
		f.Comment("// " + name + " returns a " + t.Name + " holding the " + a.GoName + " arm.")
		var body []jen.Code
		val := jen.Id("v")
		if a.Pointer() {
			val = jen.Op("&").Id("v")
		} else if a.Type.Kind == ir.RefSlice || a.Type.Kind == ir.RefMap {
			body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Id("v").Op("=").Add(goType(a.Type)).Values()))
		}
		body = append(body, jen.Return(jen.Id(t.Name).Values(jen.Dict{jen.Id(a.GoName): val})))
		f.Func().Id(name).Params(jen.Id("v").Add(goType(a.Type))).Id(t.Name).Block(body...)
	}
}

func anyIn(types []*ir.Type, set map[*ir.Type]bool) bool {
	for _, t := range types {
		if set[t] {
			return true
		}
	}
	return false
}
