package synth

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Options choose which instance Synthesize builds.
type Options struct {
	// Max builds the maximal instance; else the minimal one.
	Max bool
	// Variant picks arm Variant mod n of every n-armed oneOf/anyOf, and
	// varies enum picks the same way.
	Variant int
}

// Instance is one synthesised value and what a mutation needs to know
// about it.
type Instance struct {
	Value any
	// Sites are the objects of Value, parents before children.
	Sites []Site
	// Arms is the largest arm count of a union met; variants 0..Arms-1
	// together take every arm.
	Arms int
	// Problems lists constraints the synthesiser knows it did not satisfy.
	Problems []string
	// Extras reports members no schema declares (kept as unknown members;
	// exact-mode decoding must reject them).
	Extras bool
	root   []node
}

// Site is one object of an instance.
type Site struct {
	Pointer []string
	// Required are members present that the object's own schema requires
	// (through $ref and allOf); Conditional those required only by a union
	// arm, a then/else branch or a dependency.
	Required    []string
	Conditional []string
	Closed      bool // additionalProperties: false rejects unknown members
	Union       bool // a oneOf/anyOf on the way chose this object or an ancestor
	members     map[string][]node
}

// Generation limits: past maxDepthMax or budgetMax values, maximal
// instances continue minimally; past hardDepth a branch fails.
const (
	maxDepthMax = 8
	budgetMax   = 20000
	hardDepth   = 40
	budgetHard  = 400000
)

type gen struct {
	t        *Tree
	opts     Options
	max      bool
	depth    int
	active   map[string]int // refs being expanded on the path: recursion
	ptr      []string
	union    int
	sites    []Site
	problems []string
	arms     int
	extras   int
	count    int
	fail     bool // a hard limit was hit
}

// Synthesize builds an instance of the schema ref names: a tree path
// ("media-buy/get-products-response.json"), a path with a "#/pointer"
// fragment, or a $id.
func (t *Tree) Synthesize(ref string, opts Options) (*Instance, error) {
	n, err := t.root(ref)
	if err != nil {
		return nil, err
	}
	g := &gen{t: t, opts: opts, max: opts.Max, active: map[string]int{}}
	v, ok := g.value([]node{n}, 0)
	if !ok {
		return nil, fmt.Errorf("synth: %s: no instance within %d levels and %d values", ref, hardDepth, budgetHard)
	}
	inst := &Instance{Value: v, Sites: g.sites, Arms: max(g.arms, 1), Extras: g.extras > 0, root: []node{n}}
	seen := map[string]bool{}
	for _, p := range g.problems {
		if !seen[p] {
			seen[p] = true
			inst.Problems = append(inst.Problems, p)
		}
	}
	return inst, nil
}

// chosen records the arm a union took.
type chosen struct {
	union node
	kw    string // oneOf or anyOf
	arm   int
	n     int
}

func (g *gen) pointer() string { return Pointer(g.ptr) }

// Pointer renders tokens as an RFC 6901 pointer.
func Pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

func (g *gen) problem(format string, args ...any) {
	p := g.pointer()
	if p == "" {
		p = "(root)"
	}
	g.problems = append(g.problems, p+": "+fmt.Sprintf(format, args...))
}

// flatten expands $ref and allOf and takes an arm of every oneOf/anyOf,
// giving the conjunction of schema nodes a value must satisfy, the refs it
// went through and the arms it chose. override forces arms by union id.
func (g *gen) flatten(in []node, override map[string]int) (flat []node, refs []string, choices []chosen) {
	seen := map[string]bool{}
	var add func(n node, depth int)
	add = func(n node, depth int) {
		if depth > hardDepth {
			g.fail = true
			return
		}
		m := n.obj()
		if m == nil {
			flat = append(flat, n)
			return
		}
		if ref, ok := m["$ref"].(string); ok {
			r, err := g.t.resolve(n.doc, ref)
			if err != nil {
				g.problem("%v", err)
				return
			}
			refs = append(refs, r.doc+"|"+r.id())
			r.cond = n.cond
			add(r, depth+1)
			return
		}
		if seen[n.id()] {
			return
		}
		seen[n.id()] = true
		flat = append(flat, n)
		for _, s := range n.list("allOf") {
			s.cond = n.cond
			add(s, depth+1)
		}
		for _, kw := range [...]string{"oneOf", "anyOf"} {
			arms := n.list(kw)
			if len(arms) == 0 {
				continue
			}
			g.arms = max(g.arms, len(arms))
			i, ok := override[n.id()+kw]
			if !ok {
				i = g.opts.Variant % len(arms)
			}
			choices = append(choices, chosen{union: n, kw: kw, arm: i, n: len(arms)})
			arm := arms[i]
			arm.cond = true
			add(arm, depth+1)
		}
	}
	for _, n := range in {
		add(n, 0)
	}
	return flat, refs, choices
}

// value builds a value satisfying every node of conj. It reports false
// only when a hard limit was hit; unsatisfied constraints are problems.
func (g *gen) value(conj []node, salt int) (any, bool) {
	g.count++
	if g.count > budgetHard || g.depth > hardDepth {
		return nil, false
	}
	type attempt struct {
		v        any
		sites    []Site
		problems []string
		extras   int
	}
	var best *attempt
	var choices []chosen
	var alternatives []map[string]int // arms to try when the first choice fails here
	override := map[string]int{}
	s0, p0, e0 := len(g.sites), len(g.problems), g.extras
	here := g.pointer()
	if here == "" {
		here = "(root)"
	}
	for try := 0; try < 16; try++ {
		var flat []node
		var refs []string
		flat, refs, choices = g.flatten(conj, override)
		if g.fail {
			g.fail = false
			break
		}
		v, ok := g.withRefs(refs, func() (any, bool) { return g.generate(flat, choices, salt) })
		local := false
		for _, p := range g.problems[p0:] {
			local = local || strings.HasPrefix(p, here+": ")
		}
		if ok && !local {
			return v, true
		}
		if ok && best == nil {
			best = &attempt{v, slices.Clone(g.sites[s0:]), slices.Clone(g.problems[p0:]), g.extras - e0}
		}
		g.sites, g.problems, g.extras = g.sites[:s0], g.problems[:p0], e0
		// The arms chosen cannot be satisfied here (or nest too deep): try
		// each other arm of each union, one union at a time.
		if try == 0 {
			for _, c := range choices {
				for a := 1; a < c.n; a++ {
					alternatives = append(alternatives, map[string]int{c.union.id() + c.kw: (c.arm + a) % c.n})
				}
			}
		}
		if len(alternatives) == 0 {
			break
		}
		override, alternatives = alternatives[0], alternatives[1:]
	}
	if best == nil {
		return nil, false
	}
	g.sites = append(g.sites, best.sites...)
	g.problems = append(g.problems, best.problems...)
	g.extras += best.extras
	return best.v, true
}

// withRefs runs f one level deeper, minimal once a ref recurs or the
// instance grows large.
func (g *gen) withRefs(refs []string, f func() (any, bool)) (any, bool) {
	saveMax := g.max
	for _, r := range refs {
		if g.active[r] > 0 {
			g.max = false
		}
		g.active[r]++
	}
	if g.depth >= maxDepthMax || g.count > budgetMax {
		g.max = false
	}
	g.depth++
	v, ok := f()
	g.depth--
	for _, r := range refs {
		g.active[r]--
	}
	g.max = saveMax
	return v, ok
}

// generate builds a value for a flattened conjunction.
func (g *gen) generate(flat []node, choices []chosen, salt int) (any, bool) {
	if len(choices) > 0 {
		g.union++
		defer func() { g.union-- }()
	}
	var types []string // nil: unconstrained
	var consts []any
	var enum []any
	hasEnum := false
	for _, n := range flat {
		if b, ok := n.v.(bool); ok && !b {
			g.problem("schema false admits no value")
			return nil, true
		}
		m := n.obj()
		if ty, ok := m["type"]; ok {
			types = intersectTypes(types, ty)
		}
		if c, ok := m["const"]; ok {
			consts = append(consts, c)
		}
		if e, ok := m["enum"].([]any); ok {
			if !hasEnum {
				enum, hasEnum = e, true
			} else {
				enum = intersectValues(enum, e)
			}
		}
	}
	if len(consts) > 0 {
		v := fromSchema(consts[0])
		if !g.t.matchAll(flat, v) {
			g.problem("const %s conflicts with its schema", Marshal(v))
		}
		return v, true
	}
	if hasEnum {
		var ok []any
		for _, e := range enum {
			if v := fromSchema(e); g.t.matchAll(flat, v) {
				ok = append(ok, v)
			}
		}
		if len(ok) == 0 {
			g.problem("no enum value satisfies the schema")
			if len(enum) == 0 {
				return nil, true
			}
			return fromSchema(enum[0]), true
		}
		return ok[(g.opts.Variant+salt)%len(ok)], true
	}
	if types == nil {
		types = inferTypes(flat)
	}
	if len(types) == 0 {
		if types != nil {
			g.problem("no JSON type satisfies every type keyword")
			return nil, true
		}
		// Unconstrained (a raw JSON value in Go): an object in the maximal
		// instance, a string in the minimal one.
		if g.max {
			return &Obj{Members: []Member{{Key: "synth", Val: "raw"}}}, true
		}
		return "synth", true
	}
	var nonNull []string
	nullable := false
	for _, t := range types {
		if t == "null" {
			nullable = true
		} else {
			nonNull = append(nonNull, t)
		}
	}
	if len(nonNull) == 0 || (nullable && !g.max) {
		return nil, true
	}
	switch ty := nonNull[g.opts.Variant%len(nonNull)]; ty {
	case "object":
		return g.object(flat, choices, salt)
	case "array":
		return g.array(flat, salt)
	case "string":
		return g.str(flat, choices, salt), true
	case "integer", "number":
		v := g.number(flat, ty == "integer", salt)
		if !g.t.matchAll(flat, v) {
			g.problem("no %s found within the bounds", ty)
		} else if !g.exclusive(choices, v) {
			g.problem("%s matches several oneOf arms", Marshal(v))
		}
		return v, true
	default:
		v := g.max
		if salt > 0 {
			v = salt%2 == 1
		}
		return v, true
	}
}

// intersectTypes narrows the allowed types (nil: any) by a type keyword.
func intersectTypes(have []string, ty any) []string {
	var want []string
	switch x := ty.(type) {
	case string:
		want = []string{x}
	case []any:
		for _, w := range x {
			if s, ok := w.(string); ok {
				want = append(want, s)
			}
		}
	}
	if have == nil {
		return append([]string{}, want...)
	}
	out := []string{}
	for _, h := range have {
		for _, w := range want {
			switch {
			case h == w:
				out = append(out, h)
			case h == "number" && w == "integer", h == "integer" && w == "number":
				out = append(out, "integer")
			}
		}
	}
	return out
}

func intersectValues(a, b []any) []any {
	var out []any
	for _, x := range a {
		for _, y := range b {
			if equal(x, y) {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// inferTypes guesses the type of a schema without a type keyword from the
// keywords it has; nil when nothing says.
func inferTypes(flat []node) []string {
	has := func(keys ...string) bool {
		for _, n := range flat {
			for _, k := range keys {
				if _, ok := n.obj()[k]; ok {
					return true
				}
			}
		}
		return false
	}
	switch {
	case has("properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependencies"):
		return []string{"object"}
	case has("items", "minItems", "maxItems", "contains", "uniqueItems"):
		return []string{"array"}
	case has("pattern", "format", "minLength", "maxLength"):
		return []string{"string"}
	case has("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
		return []string{"number"}
	}
	return nil
}

// number picks a number within every bound.
func (g *gen) number(flat []node, integer bool, salt int) any {
	lo, hi := math.Inf(-1), math.Inf(1)
	exLo, exHi := false, false
	mult := 0.0
	for _, n := range flat {
		m := n.obj()
		if v, ok := m["minimum"]; ok && num(v) >= lo {
			lo, exLo = num(v), false
		}
		if v, ok := m["exclusiveMinimum"]; ok && num(v) >= lo {
			lo, exLo = num(v), true
		}
		if v, ok := m["maximum"]; ok && num(v) <= hi {
			hi, exHi = num(v), false
		}
		if v, ok := m["exclusiveMaximum"]; ok && num(v) <= hi {
			hi, exHi = num(v), true
		}
		if v, ok := m["multipleOf"]; ok {
			mult = num(v)
		}
	}
	in := func(f float64) bool {
		return (f > lo || (!exLo && f == lo)) && (f < hi || (!exHi && f == hi))
	}
	want := 1.0
	if g.max {
		want = 5
		if !integer {
			want = 2.5
		}
	}
	want += float64(salt)
	if !in(want) {
		switch {
		case !math.IsInf(lo, 0):
			want = lo
			if exLo {
				if integer {
					want = math.Floor(lo) + 1
				} else {
					step := 0.5
					if !math.IsInf(hi, 0) {
						step = (hi - lo) / 2
					}
					want = lo + step
				}
			}
			if integer {
				want = math.Ceil(want)
			}
			if in(want + float64(salt)) {
				want += float64(salt)
			}
		case !math.IsInf(hi, 0):
			want = hi
			if exHi {
				want = hi - 1
				if !integer {
					want = hi - 0.5
				}
			}
			if integer {
				want = math.Floor(want)
			}
		}
	}
	if mult > 0 {
		want = math.Ceil(want/mult) * mult
	}
	if integer || want == math.Trunc(want) {
		return json.Number(strconv.FormatInt(int64(want), 10))
	}
	return json.Number(strconv.FormatFloat(want, 'f', -1, 64))
}

// array builds the fewest items (minimal) or two near the top (maximal).
func (g *gen) array(flat []node, salt int) (any, bool) {
	var items, contains []node
	var tuple [][]node
	minItems, maxItems := 0, -1
	unique := false
	for _, n := range flat {
		m := n.obj()
		switch it := m["items"].(type) {
		case []any:
			for i, s := range it {
				if i >= len(tuple) {
					tuple = append(tuple, nil)
				}
				tuple[i] = append(tuple[i], node{doc: n.doc, v: s})
			}
		case nil:
		default:
			items = append(items, node{doc: n.doc, v: it})
		}
		if c, ok := n.sub("contains"); ok {
			contains = append(contains, c)
		}
		if v, ok := m["minItems"]; ok {
			minItems = max(minItems, int(num(v)))
		}
		if v, ok := m["maxItems"]; ok {
			if k := int(num(v)); maxItems < 0 || k < maxItems {
				maxItems = k
			}
		}
		if u, _ := m["uniqueItems"].(bool); u {
			unique = true
		}
	}
	count := minItems
	if g.max {
		want := 1
		if g.depth <= 3 {
			want = 2
		}
		count = max(count, want)
	}
	// Each contains gets an item of its own, the first ones.
	count = max(count, len(contains))
	if maxItems >= 0 && count > maxItems {
		count = maxItems
	}
	out := []any{}
	s0 := len(g.sites)
	for i := 0; i < count; i++ {
		conj := items
		if i < len(tuple) {
			conj = append(append([]node{}, tuple[i]...), items...)
		}
		if i < len(contains) {
			conj = append(append([]node{}, conj...), contains[i])
		}
		g.ptr = append(g.ptr, strconv.Itoa(i))
		v, ok := g.value(conj, salt+i)
		if ok && i < len(contains) && !g.t.matchAll(conj, v) {
			// The variant's arm conflicts with contains: try the others.
			save, s0, p0 := g.opts.Variant, len(g.sites), len(g.problems)
			for k := 1; k < 16 && !g.t.matchAll(conj, v); k++ {
				g.sites, g.problems = g.sites[:s0], g.problems[:p0]
				g.opts.Variant = save + k
				v, ok = g.value(conj, salt+i)
			}
			g.opts.Variant = save
		}
		g.ptr = g.ptr[:len(g.ptr)-1]
		if !ok {
			if i >= minItems {
				break
			}
			return nil, false
		}
		out = append(out, v)
	}
	if unique {
		var kept []any
		index := map[int]int{} // old index -> new
		for i, v := range out {
			dup := false
			for _, k := range kept {
				dup = dup || equal(k, v)
			}
			if !dup {
				index[i] = len(kept)
				kept = append(kept, v)
			}
		}
		if len(kept) < minItems {
			g.problem("cannot make %d unique items", minItems)
		} else if len(kept) < len(out) {
			out = kept
			g.renumber(s0, index)
		}
	}
	return out, true
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// exclusive reports whether v matches only the chosen arm of every oneOf
// that chose one.
func (g *gen) exclusive(choices []chosen, v any) bool {
	for _, c := range choices {
		if c.kw != "oneOf" {
			continue
		}
		for i, a := range c.union.list("oneOf") {
			if i != c.arm && g.t.match(a, v) {
				return false
			}
		}
	}
	return true
}

// renumber fixes the sites from index from on after array items were
// dropped: index maps kept old positions to new ones.
func (g *gen) renumber(from int, index map[int]int) {
	depth := len(g.ptr)
	kept := g.sites[:from]
	for _, s := range g.sites[from:] {
		if len(s.Pointer) > depth {
			old, err := atoi(s.Pointer[depth])
			n, ok := index[old]
			if err != nil || !ok {
				continue
			}
			s.Pointer = slices.Clone(s.Pointer)
			s.Pointer[depth] = strconv.Itoa(n)
		}
		kept = append(kept, s)
	}
	g.sites = kept
}
