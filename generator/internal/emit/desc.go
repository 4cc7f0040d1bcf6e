package emit

import (
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

// Every generated type is described by a static wireimpl.Desc (descT for type
// T) that runtime/wire's engine walks to decode and encode it. Slices,
// maps, nullables and consts used anywhere get a Desc of their own
// (sliceOfT, mapOfString, constStringPlz, ...), declared once per package
// in registry_gen.go, or descriptorsFile when there is none.
//
// A Desc points at the Descs of what it holds, and Go refuses a package
// variable whose initialiser refers back to itself through others
// ("initialization cycle"). So within each strongly connected component
// of that reference graph (recursive types), references to a named type
// go through lateT, a Desc naming T by its Go type only, which the engine
// resolves on first use. Everything stays static data: no init code.

// descriptorsFile holds the package's shared descriptors when it has no
// registry_gen.go (and the base package's).
const descriptorsFile = "descriptors_gen.go"

// descNode is one descriptor variable.
type descNode struct {
	name  string
	named *ir.Type // a named type's Desc
	ref   *ir.Ref  // a slice, map, nullable or const
	// const: the literal, Go value and shape.
	konst *schema.Value
	shape string
	edges []*descNode
	scc   int // the strongly connected component it belongs to
}

// descSet is every descriptor of a package and how to refer to them.
type descSet struct {
	named  map[*ir.Type]*descNode
	shared map[string]*descNode // by structural key
	late   map[*ir.Type]bool    // types referred to through lateT
	// frozen: every node exists; emission (on several goroutines) only
	// reads the set.
	frozen bool
	// places says where each type is used, for doc comments.
	places map[*ir.Type]place
}

// newDescSet collects the descriptors of the package that declares types:
// the types' own, and the shared ones they use.
func newDescSet(types []*ir.Type) *descSet {
	s := &descSet{named: map[*ir.Type]*descNode{}, shared: map[string]*descNode{}, late: map[*ir.Type]bool{}}
	for _, t := range types {
		s.named[t] = &descNode{name: s.descName(t), named: t}
	}
	for _, t := range types {
		n := s.named[t]
		for _, r := range typeRefs(t) {
			if e := s.node(r); e != nil {
				n.edges = append(n.edges, e)
			}
		}
		for _, fl := range t.Fields {
			if fl.Const != nil {
				n.edges = append(n.edges, s.constNode(fl.Const, fl.Type))
			}
		}
	}
	s.dedupe()
	s.components()
	// A reference inside a component goes through late.
	for _, n := range s.all() {
		for _, e := range n.edges {
			if e.named != nil && e.scc == n.scc {
				s.late[e.named] = true
			}
		}
	}
	s.frozen = true
	return s
}

// typeRefs are the type expressions a named type's Desc refers to.
func typeRefs(t *ir.Type) []*ir.Ref {
	var out []*ir.Ref
	switch t.Kind {
	case ir.KindStruct:
		for _, fl := range t.Fields {
			if fl.Const == nil {
				out = append(out, fl.Type)
			}
		}
		for _, p := range t.Patterns {
			out = append(out, ir.MapOf(p.Type))
		}
		if t.Extra.Mode == ir.ExtraTyped {
			out = append(out, ir.MapOf(t.Extra.Type))
		}
	case ir.KindUnion:
		for _, a := range t.Union.Arms {
			out = append(out, a.Type)
		}
	case ir.KindSlice, ir.KindMap:
		out = append(out, t.Underlying.Elem)
	}
	return out
}

// node returns the descriptor of a type expression, creating shared ones
// (and their own references) on first sight; builtins have none (nil).
func (s *descSet) node(r *ir.Ref) *descNode {
	switch r.Kind {
	case ir.RefNamed:
		return s.named[r.Named]
	case ir.RefBuiltin:
		if r.Const != nil {
			return s.constNode(r.Const, r)
		}
		return nil
	}
	key := refKey(r)
	if n, ok := s.shared[key]; ok {
		return n
	}
	s.mustGrow(key)
	n := &descNode{name: refName(r), ref: r}
	s.shared[key] = n
	if e := s.node(r.Elem); e != nil {
		n.edges = append(n.edges, e)
	}
	return n
}

// constNode returns the Desc of a scalar fixed to v, of r's builtin type.
func (s *descSet) constNode(v *schema.Value, r *ir.Ref) *descNode {
	shape := constShape(v, r)
	key := "const " + shape + " " + v.JSON()
	if n, ok := s.shared[key]; ok {
		return n
	}
	s.mustGrow(key)
	n := &descNode{name: "const" + shape + litName(v), konst: v, shape: shape}
	s.shared[key] = n
	return n
}

func (s *descSet) mustGrow(key string) {
	if s.frozen {
		panic("emit: descriptor " + key + " was not collected before emission")
	}
}

func constShape(v *schema.Value, r *ir.Ref) string {
	if r.Kind == ir.RefBuiltin {
		switch r.Builtin {
		case ir.Int:
			return "Int"
		case ir.Float:
			return "Float"
		case ir.Bool:
			return "Bool"
		case ir.String, ir.DateTime, ir.Date:
			return "String"
		}
	}
	switch v.Node.Kind {
	case jsonsrc.Bool:
		return "Bool"
	case jsonsrc.Number:
		return "Float"
	}
	return "String"
}

// litName makes a const's literal part of an identifier.
func litName(v *schema.Value) string {
	var b strings.Builder
	up := true
	for _, r := range v.JSON() {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if up {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			up = false
		case r == '-' && b.Len() == 0:
			b.WriteString("Minus")
			up = true
		default:
			up = true
		}
		if b.Len() >= 32 {
			break
		}
	}
	return b.String()
}

// refKey is a structural key of a slice, map or nullable type expression.
func refKey(r *ir.Ref) string {
	switch r.Kind {
	case ir.RefNamed:
		return "T" + r.Named.Name
	case ir.RefSlice:
		return "[]" + refKey(r.Elem)
	case ir.RefMap:
		return "map" + refKey(r.Elem)
	case ir.RefNullable:
		return "?" + refKey(r.Elem)
	}
	if r.Const != nil {
		return "const " + constShape(r.Const, r) + " " + r.Const.JSON()
	}
	return builtinNames[r.Builtin]
}

// refName names the Desc of a slice, map or nullable (sliceOfProduct).
func refName(r *ir.Ref) string {
	switch r.Kind {
	case ir.RefNamed:
		return r.Named.Name
	case ir.RefSlice:
		return "sliceOf" + upperFirst(refName(r.Elem))
	case ir.RefMap:
		return "mapOf" + upperFirst(refName(r.Elem))
	case ir.RefNullable:
		return "nullableOf" + upperFirst(refName(r.Elem))
	}
	if r.Const != nil {
		return "Const" + constShape(r.Const, r) + litName(r.Const)
	}
	return builtinNames[r.Builtin]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// all lists every node in a deterministic order.
func (s *descSet) all() []*descNode {
	out := make([]*descNode, 0, len(s.named)+len(s.shared))
	for _, n := range s.named {
		out = append(out, n)
	}
	for _, n := range s.shared {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// components numbers the strongly connected components of the references.
func (s *descSet) components() {
	for i, comp := range components(s.all(), func(n *descNode) []*descNode { return n.edges }) {
		for _, n := range comp {
			n.scc = i + 1
		}
	}
}

// dedupe dedupes the names of shared descriptors (two const literals
// can sanitise alike) in key order, so the result is deterministic.
func (s *descSet) dedupe() {
	keys := make([]string, 0, len(s.shared))
	for k := range s.shared {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	used := map[string]bool{}
	for _, n := range s.named {
		used[n.name] = true
	}
	for _, k := range keys {
		n := s.shared[k]
		base := n.name
		for i := 2; used[n.name]; i++ {
			n.name = base + strconv.Itoa(i)
		}
		used[n.name] = true
	}
}

// ref renders a reference from the Desc of from to the Desc of r.
func (s *descSet) ref(from *descNode, r *ir.Ref) jen.Code {
	n := s.node(r)
	if n == nil {
		return jen.Op("&").Add(implQ(builtinDesc(r.Builtin)))
	}
	if n.named != nil && s.late[n.named] && n.scc == from.scc {
		return jen.Op("&").Id("late" + n.named.Name)
	}
	return jen.Op("&").Id(n.name)
}

// descName names T's Desc: descT, unexported, since only T's WireDesc
// returns it.
func (s *descSet) descName(t *ir.Type) string {
	return "desc" + t.Name
}

// constRef renders a reference to the Desc of a const.
func (s *descSet) constRef(v *schema.Value, r *ir.Ref) jen.Code {
	return jen.Op("&").Id(s.constNode(v, r).name)
}

func builtinDesc(b ir.Builtin) string {
	switch b {
	case ir.Int:
		return "DescInt"
	case ir.Float:
		return "DescFloat"
	case ir.Bool:
		return "DescBool"
	case ir.Raw:
		return "DescRaw"
	}
	return "DescString"
}

// goTypeOf renders (*T)(nil) for Desc.Go.
func goTypeOf(t jen.Code) jen.Code {
	return jen.Parens(jen.Op("*").Add(t)).Parens(jen.Nil())
}

// emitDescriptors writes the shared descriptors and the late ones.
func (s *descSet) emitDescriptors(f *jen.File) {
	for _, n := range s.all() {
		switch {
		case n.named != nil:
			if s.late[n.named] {
				f.Var().Id("late" + n.named.Name).Op("=").Add(implQ("Desc")).Add(fields(
					kv{"Shape", implQ("ShapeLate")}, kv{"Go", goTypeOf(jen.Id(n.named.Name))}))
			}
		case n.konst != nil:
			f.Var().Id(n.name).Op("=").Add(implQ("Desc")).Add(fields(constFields(n.konst, n.shape)...))
		default:
			shape := map[ir.RefKind]string{ir.RefSlice: "ShapeSlice", ir.RefMap: "ShapeMap", ir.RefNullable: "ShapeNullable"}[n.ref.Kind]
			f.Var().Id(n.name).Op("=").Add(implQ("Desc")).Add(fields(
				kv{"Shape", implQ(shape)}, kv{"Go", goTypeOf(goType(n.ref))}, kv{"Elem", s.ref(n, n.ref.Elem)}))
		}
	}
}

// constFields are the Desc fields of a const of the given shape.
func constFields(v *schema.Value, shape string) []kv {
	var value jen.Code
	n := v.Node
	switch shape {
	case "Int":
		i, err := strconv.ParseInt(n.Str, 10, 64)
		if err != nil { // an integer written with a fraction or exponent (5.0, 5e0)
			x, _ := strconv.ParseFloat(n.Str, 64)
			i = int64(x)
		}
		value = jen.Int64().Call(jen.Lit(i))
	case "Float":
		x, _ := strconv.ParseFloat(n.Str, 64)
		value = jen.Float64().Call(jen.Lit(x))
	case "Bool":
		value = jen.Lit(n.Bool)
	default:
		value = jen.Lit(n.Str)
	}
	return []kv{{"Shape", implQ("Shape" + shape)}, {"Const", jen.Lit(v.JSON())}, {"Value", value}}
}

// descVar declares T's Desc, descT.
func descVar(f *jen.File, s *descSet, t *ir.Type, items ...kv) {
	f.Var().Id(s.descName(t)).Op("=").Add(implQ("Desc")).Add(fields(items...))
}

// codecMethods writes T's WireDesc, which hands descT to runtime/wire: T
// then implements wire.Value.
func codecMethods(f *jen.File, s *descSet, t *ir.Type, r string) {
	f.Comment("// WireDesc describes " + t.Name + " to package wire, which decodes and encodes it.")
	f.Func().Params(jen.Op("*").Id(t.Name)).Id("WireDesc").Params().Op("*").Add(implQ("Desc")).Block(
		jen.Return(jen.Op("&").Id(s.descName(t))),
	)
}

// kv is one key: value of a composite literal rendered by fields.
type kv struct {
	key   string
	value jen.Code
}

// fields renders {K: v, ...} on one line, keys in the order given (nil
// values are left out).
func fields(items ...kv) *jen.Statement {
	var out []jen.Code
	for _, it := range items {
		if it.value != nil {
			out = append(out, jen.Id(it.key).Op(":").Add(it.value))
		}
	}
	return jen.Values(out...)
}

// lines renders {\n a,\n b,\n} with one element per line.
func lines(items []jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

// builtinShape is the wire Shape (without "Shape") of a builtin.
func builtinShape(b ir.Builtin) string {
	return strings.TrimPrefix(builtinDesc(b), "Desc")
}
