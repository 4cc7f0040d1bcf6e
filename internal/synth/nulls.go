package synth

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// NullSite is a place in an instance whose schema admits null: a member
// (present or not) or an array item (Pointer's last index may equal the
// array's length: null appended).
type NullSite struct {
	Pointer []string
	// Schemas are the locations ("core/x.json#/properties/y") through which
	// the place admits null: the schemas applying there, the $ref targets,
	// allOf members and union arms null satisfies.
	Schemas []string
}

// NullSites walks v, an instance of the schema ref names, and lists the
// places where null may go: every member an object's schema declares,
// present or absent, every present member, a first item (or an item
// appended), and an additional member when the schema types them, whose
// schema admits null and says so (a type, enum or const naming null,
// directly or through $ref, allOf or a union arm; a schema that admits
// null only by saying nothing about type is left out). Union arms,
// if/then/else and allOf are followed as the value itself matches them, so
// each place is read under the schemas that actually apply to it. Whether
// the whole instance stays valid with null there is the caller's
// validator's call (a oneOf whose other arm null now satisfies, say).
func (t *Tree) NullSites(ref string, v any) ([]NullSite, error) {
	n, err := t.root(ref)
	if err != nil {
		return nil, err
	}
	w := &nullWalk{t: t, g: &gen{t: t}, locs: t.locations()}
	w.walk([]node{n}, v, nil, 0)
	return w.out, nil
}

// WithNull returns a copy of v with null at ptr (a NullSite's pointer).
func WithNull(v any, ptr []string) any {
	root := clone(v)
	if len(ptr) == 0 {
		return nil
	}
	parent, ok := at(root, ptr[:len(ptr)-1])
	if !ok {
		return root
	}
	last := ptr[len(ptr)-1]
	switch x := parent.(type) {
	case *Obj:
		x.Set(last, nil)
	case []any:
		i, err := atoi(last)
		if err != nil {
			return root
		}
		if i < len(x) {
			x[i] = nil
		} else {
			// An append: rebuild the parent slice in its own parent.
			return setAt(root, ptr[:len(ptr)-1], append(x, nil))
		}
	}
	return root
}

// setAt replaces the value at ptr (which exists) in root.
func setAt(root any, ptr []string, val any) any {
	if len(ptr) == 0 {
		return val
	}
	parent, _ := at(root, ptr[:len(ptr)-1])
	last := ptr[len(ptr)-1]
	switch x := parent.(type) {
	case *Obj:
		x.Set(last, val)
	case []any:
		if i, err := atoi(last); err == nil && i < len(x) {
			x[i] = val
		}
	}
	return root
}

type nullWalk struct {
	t    *Tree
	g    *gen // for keyConj
	locs map[string]string
	out  []NullSite
}

// nullExtraKey names an additional member added to carry null.
const nullExtraKey = "synth_null"

func (w *nullWalk) site(conj []node, ptr []string, key string) {
	if len(conj) > 0 && w.t.matchAll(conj, nil) && slices.ContainsFunc(conj, w.t.saysNull) {
		w.out = append(w.out, NullSite{Pointer: append(slices.Clone(ptr), key), Schemas: w.schemas(conj)})
	}
}

func (w *nullWalk) walk(conj []node, v any, ptr []string, depth int) {
	if v == nil || depth > hardDepth || len(conj) == 0 {
		return
	}
	flat := w.applying(conj, v)
	switch x := v.(type) {
	case *Obj:
		keys := map[string]bool{}
		for _, m := range x.Members {
			keys[m.Key] = true
		}
		extra := true // an additional member may be added
		for _, n := range flat {
			for k := range n.props("properties") {
				keys[k] = true
			}
			if a, ok := n.obj()["additionalProperties"].(bool); ok && !a {
				extra = false
			}
		}
		if extra && !keys[nullExtraKey] && w.g.allowedKey(flat, nullExtraKey) {
			keys[nullExtraKey] = true
		}
		for _, k := range sortedKeys(keys) {
			w.site(w.g.keyConj(flat, k), ptr, k)
		}
		for _, m := range x.Members {
			w.walk(w.g.keyConj(flat, m.Key), m.Val, append(ptr, m.Key), depth+1)
		}
	case []any:
		for i := 0; i <= len(x); i++ {
			sub := itemConj(flat, i)
			if i == 0 || i == len(x) {
				w.site(sub, ptr, strconv.Itoa(i))
			}
			if i < len(x) {
				w.walk(sub, x[i], append(ptr, strconv.Itoa(i)), depth+1)
			}
		}
	}
}

// itemConj is the conjunction array item i must satisfy.
func itemConj(flat []node, i int) []node {
	var sub []node
	for _, n := range flat {
		switch it := n.obj()["items"].(type) {
		case []any:
			if i < len(it) {
				sub = append(sub, node{doc: n.doc, v: it[i]})
			} else if a, ok := n.sub("additionalItems"); ok {
				sub = append(sub, a)
			}
		case nil:
		default:
			sub = append(sub, node{doc: n.doc, v: it})
		}
	}
	return sub
}

// applying expands conj to every schema node that applies to v: $ref
// targets, allOf members, the oneOf/anyOf arms v matches, and the if/then/
// else branch v takes.
func (w *nullWalk) applying(conj []node, v any) []node {
	var out []node
	seen := map[string]bool{}
	var add func(n node, depth int)
	add = func(n node, depth int) {
		m := n.obj()
		if m == nil || depth > hardDepth || seen[n.id()] {
			return
		}
		seen[n.id()] = true
		if ref, ok := m["$ref"].(string); ok {
			if r, err := w.t.resolve(n.doc, ref); err == nil {
				add(r, depth+1)
			}
			return
		}
		out = append(out, n)
		for _, s := range n.list("allOf") {
			add(s, depth+1)
		}
		for _, kw := range [...]string{"oneOf", "anyOf"} {
			for _, s := range n.list(kw) {
				if w.t.match(s, v) {
					add(s, depth+1)
				}
			}
		}
		if s, ok := n.sub("if"); ok {
			branch := "else"
			if w.t.match(s, v) {
				branch = "then"
			}
			if b, ok := n.sub(branch); ok {
				add(b, depth+1)
			}
		}
	}
	for _, n := range conj {
		add(n, 0)
	}
	return out
}

// schemas names the locations through which null satisfies conj.
func (w *nullWalk) schemas(conj []node) []string {
	var out []string
	for _, n := range conj {
		for _, a := range w.applyingRefs(n) {
			if loc, ok := w.locs[a.id()]; ok && !slices.Contains(out, loc) {
				out = append(out, loc)
			}
		}
	}
	sort.Strings(out)
	return out
}

// saysNull reports a schema that names null (type, enum or const) itself or
// through the $ref targets, allOf members and arms null satisfies.
func (t *Tree) saysNull(n node) bool {
	w := &nullWalk{t: t}
	return slices.ContainsFunc(w.applyingRefs(n), func(a node) bool {
		m := a.obj()
		switch ty := m["type"].(type) {
		case string:
			if ty == "null" {
				return true
			}
		case []any:
			if slices.Contains(ty, any("null")) {
				return true
			}
		}
		if e, ok := m["enum"].([]any); ok && slices.Contains(e, nil) {
			return true
		}
		c, ok := m["const"]
		return ok && c == nil
	})
}

// applyingRefs is n with the $ref targets, allOf members and arms that
// null satisfies, the nodes themselves included ($ref holders too).
func (w *nullWalk) applyingRefs(n node) []node {
	var out []node
	var add func(n node, depth int)
	add = func(n node, depth int) {
		m := n.obj()
		if m == nil || depth > hardDepth || slices.ContainsFunc(out, func(o node) bool { return o.id() == n.id() }) {
			return
		}
		out = append(out, n)
		if ref, ok := m["$ref"].(string); ok {
			if r, err := w.t.resolve(n.doc, ref); err == nil {
				add(r, depth+1)
			}
			return
		}
		for _, s := range n.list("allOf") {
			add(s, depth+1)
		}
		for _, kw := range [...]string{"oneOf", "anyOf"} {
			for _, s := range n.list(kw) {
				if w.t.match(s, nil) {
					add(s, depth+1)
				}
			}
		}
	}
	add(n, 0)
	return out
}

// NullableLocations lists every schema location of the tree where a value
// sits (a document root, a definition, a property, pattern or additional
// property, array items) and whose schema admits null and says so, as
// "core/x.json#/properties/y", sorted.
func (t *Tree) NullableLocations() []string {
	var out []string
	for loc, n := range t.valueNodes() {
		if t.match(n, nil) && t.saysNull(n) {
			out = append(out, loc)
		}
	}
	sort.Strings(out)
	return out
}

// locations maps every schema object of the tree (by node id) to its
// location.
func (t *Tree) locations() map[string]string {
	t.locOnce.Do(func() {
		t.locs = map[string]string{}
		for loc, n := range t.valueNodes() {
			t.locs[n.id()] = loc
		}
		for doc, v := range t.docs {
			walkSchemas(node{doc: doc, v: v}, "", func(n node, ptr string, _ bool) {
				if _, ok := t.locs[n.id()]; !ok {
					t.locs[n.id()] = doc + "#" + ptr
				}
			})
		}
	})
	return t.locs
}

// valueNodes are the schema objects at value positions, by location.
func (t *Tree) valueNodes() map[string]node {
	out := map[string]node{}
	for doc, v := range t.docs {
		walkSchemas(node{doc: doc, v: v}, "", func(n node, ptr string, value bool) {
			if value {
				out[doc+"#"+ptr] = n
			}
		})
	}
	return out
}

// walkSchemas calls f for n and every subschema below it, saying whether
// the subschema sits at a value position: a root, definition, property or
// items schema not under a combinator arm's own position, nor under a
// condition (not, if/then/else, contains, propertyNames, dependencies),
// which only constrains.
func walkSchemas(n node, ptr string, f func(n node, ptr string, value bool)) {
	var visit func(n node, ptr string, value, constraint bool, depth int)
	visit = func(n node, ptr string, value, constraint bool, depth int) {
		m := n.obj()
		if m == nil || depth > maxEvalDepth {
			return
		}
		f(n, ptr, value && !constraint)
		child := func(key string, value, constraint bool) {
			if s, ok := n.sub(key); ok {
				visit(s, ptr+"/"+key, value, constraint, depth+1)
			}
		}
		each := func(key string, c bool) {
			for k, s := range n.props(key) {
				visit(s, ptr+"/"+key+"/"+escapeToken(k), true, c, depth+1)
			}
		}
		list := func(key string, value, c bool) {
			for i, s := range n.list(key) {
				visit(s, fmt.Sprintf("%s/%s/%d", ptr, key, i), value, c, depth+1)
			}
		}
		each("properties", constraint)
		each("patternProperties", constraint)
		each("definitions", false)
		each("$defs", false)
		child("additionalProperties", true, constraint)
		child("additionalItems", true, constraint)
		if _, isList := m["items"].([]any); isList {
			list("items", true, constraint)
		} else {
			child("items", true, constraint)
		}
		list("allOf", false, constraint)
		list("anyOf", false, constraint)
		list("oneOf", false, constraint)
		for _, k := range []string{"not", "if", "then", "else", "contains", "propertyNames"} {
			child(k, false, true)
		}
		if deps, ok := m["dependencies"].(map[string]any); ok {
			for k, d := range deps {
				if _, isSchema := d.(map[string]any); isSchema {
					visit(node{doc: n.doc, v: d}, ptr+"/dependencies/"+escapeToken(k), false, true, depth+1)
				}
			}
		}
	}
	visit(n, ptr, true, false, 0)
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
