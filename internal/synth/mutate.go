package synth

import (
	"encoding/json"
	"slices"
)

// Mutation operations.
const (
	OpDropRequired = "drop_required"
	OpWrongType    = "wrong_type"
	OpProto        = "proto"         // "__proto__" added
	OpProtoEscaped = "proto_escaped" // "\u005f_proto__" added
	OpDuplicate    = "duplicate"     // a member repeated
	OpUnknown      = "unknown"       // a member added where the object is closed
)

// maxCandidates bounds the mutations of one kind Mutations offers.
const maxCandidates = 6

// Mutation is an invalid variant of an instance and where a strict decoder
// should say so.
type Mutation struct {
	Op string
	// Site is the pointer of the object changed ("" for the root).
	Site string
	// Pointer is where a strict decoder reports the failure: the object
	// for a missing member, else the member.
	Pointer string
	Key     string
	// Const reports a wrong-typed member whose schema fixes its value; a
	// const mismatch is a right report too.
	Const bool
	// Union reports a oneOf/anyOf deciding the shape of the member or an
	// enclosing object, or a requirement that only a union arm or a
	// conditional makes; a union failure at Pointer or above is a right
	// report too.
	Union bool
	Data  []byte
}

// Mutations derives candidate mutations of each kind that applies to inst,
// best first: drop_required, wrong_type and unknown (which a schema
// validator sees too) up to maxCandidates each, preferring members no
// union or condition governs; one each of proto, proto_escaped (at the
// deepest object) and duplicate. A caller keeps, per kind, the first
// candidate its validator rejects.
func (t *Tree) Mutations(inst *Instance) []Mutation {
	var sites []Site
	for _, s := range inst.Sites {
		if v, ok := at(inst.Value, s.Pointer); ok {
			if _, isObj := v.(*Obj); isObj {
				sites = append(sites, s)
			}
		}
	}
	// Sites no union decides first.
	ordered := slices.Clone(sites)
	slices.SortStableFunc(ordered, func(a, b Site) int {
		switch {
		case a.Union == b.Union:
			return 0
		case !a.Union:
			return -1
		}
		return 1
	})
	edit := func(s Site, f func(o *Obj)) []byte {
		root := clone(inst.Value)
		v, _ := at(root, s.Pointer)
		f(v.(*Obj))
		return Marshal(root)
	}
	member := func(s Site, key string) string {
		return Pointer(append(slices.Clone(s.Pointer), key))
	}
	var out []Mutation

	var drops []Mutation
	for _, conditional := range []bool{false, true} {
		for _, s := range ordered {
			keys := s.Required
			if conditional {
				keys = s.Conditional
			}
			for _, key := range keys {
				if len(drops) < maxCandidates {
					drops = append(drops, Mutation{Op: OpDropRequired, Site: Pointer(s.Pointer), Pointer: Pointer(s.Pointer), Key: key,
						Union: s.Union || conditional, Data: edit(s, func(o *Obj) { o.Delete(key) })})
				}
			}
		}
	}
	out = append(out, drops...)

	out = append(out, t.wrongTypes(inst, ordered)...)

	if len(sites) > 0 {
		s := sites[0]
		out = append(out, Mutation{Op: OpProto, Site: Pointer(s.Pointer), Pointer: member(s, "__proto__"), Key: "__proto__", Union: s.Union,
			Data: edit(s, func(o *Obj) {
				o.Members = append([]Member{{Key: "__proto__", Val: json.Number("1")}}, o.Members...)
			})})
		deep := sites[0]
		for _, c := range sites {
			if len(c.Pointer) > len(deep.Pointer) {
				deep = c
			}
		}
		out = append(out, Mutation{Op: OpProtoEscaped, Site: Pointer(deep.Pointer), Pointer: member(deep, "__proto__"), Key: "__proto__", Union: deep.Union,
			Data: edit(deep, func(o *Obj) {
				o.Members = append(o.Members, Member{Key: "__proto__", RawKey: `"\u005f_proto__"`, Val: &Obj{}})
			})})
	}

	for _, s := range ordered {
		v, _ := at(inst.Value, s.Pointer)
		if o := v.(*Obj); len(o.Members) > 0 {
			first := o.Members[0]
			out = append(out, Mutation{Op: OpDuplicate, Site: Pointer(s.Pointer), Pointer: member(s, first.Key), Key: first.Key, Union: s.Union,
				Data: edit(s, func(o *Obj) { o.Members = append(o.Members, Member{Key: first.Key, Val: clone(first.Val)}) })})
			break
		}
	}

	n := 0
	for _, s := range ordered {
		if s.Closed && n < maxCandidates {
			n++
			out = append(out, Mutation{Op: OpUnknown, Site: Pointer(s.Pointer), Pointer: member(s, unknownProbe), Key: unknownProbe, Union: s.Union,
				Data: edit(s, func(o *Obj) { o.Members = append(o.Members, Member{Key: unknownProbe, Val: json.Number("1")}) })})
		}
	}
	return out
}

// wrongTypes replaces a member (or a scalar root) with a value of a JSON
// type its schema does not allow: members no union or const governs first.
func (t *Tree) wrongTypes(inst *Instance, sites []Site) []Mutation {
	type cand struct {
		site        Site
		key         string
		wrong       any
		union, kons bool
	}
	var plain, governed []cand
	for _, s := range sites {
		if len(plain) >= maxCandidates {
			break
		}
		v, _ := at(inst.Value, s.Pointer)
		for _, m := range v.(*Obj).Members {
			conj, ok := s.members[m.Key]
			if !ok || len(conj) == 0 {
				continue
			}
			w, ok := t.wrongValue(conj, m.Val)
			if !ok {
				continue
			}
			u, k := t.governed(conj)
			c := cand{s, m.Key, w, u || s.Union, k}
			if c.union || c.kons {
				governed = append(governed, c)
			} else {
				plain = append(plain, c)
			}
		}
	}
	var out []Mutation
	for _, c := range append(plain, governed...) {
		if len(out) == maxCandidates {
			break
		}
		root := clone(inst.Value)
		o, _ := at(root, c.site.Pointer)
		o.(*Obj).Set(c.key, c.wrong)
		out = append(out, Mutation{Op: OpWrongType, Site: Pointer(c.site.Pointer), Pointer: Pointer(append(slices.Clone(c.site.Pointer), c.key)), Key: c.key,
			Union: c.union, Const: c.kons, Data: Marshal(root)})
	}
	if _, isObj := inst.Value.(*Obj); !isObj && len(out) < maxCandidates {
		if w, ok := t.wrongValue(inst.root, inst.Value); ok {
			u, k := t.governed(inst.root)
			out = append(out, Mutation{Op: OpWrongType, Union: u, Const: k, Data: Marshal(w)})
		}
	}
	return out
}

// wrongValue is a value of another JSON type than v that conj rejects.
func (t *Tree) wrongValue(conj []node, v any) (any, bool) {
	cands := []any{json.Number("12345"), "wrong-type", true, &Obj{}, []any{}}
	for _, c := range cands {
		if jsonType(c) == jsonType(v) || (jsonType(c) == "integer" && jsonType(v) == "number") {
			continue
		}
		if !t.matchAll(conj, c) {
			return c, true
		}
	}
	return nil, false
}

// governed reports whether a union decides values of conj, or a const (or
// a one-value enum) fixes them.
func (t *Tree) governed(conj []node) (union, konst bool) {
	g := &gen{t: t, active: map[string]int{}}
	flat, _, choices := g.flatten(conj, nil)
	for _, n := range flat {
		m := n.obj()
		if _, ok := m["const"]; ok {
			konst = true
		}
		if e, ok := m["enum"].([]any); ok && len(e) == 1 {
			konst = true
		}
	}
	return len(choices) > 0, konst
}
