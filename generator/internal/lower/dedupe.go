package lower

import (
	"slices"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

// A merge (allOf) makes copies: of a property several members declare,
// and, when it takes in a union of another place, of each arm with the
// merging schema's own members. A deep merge copies every level down to
// the one it changes. Copies that come out the same Go type as the type
// their schema node has on its own are that type: dedupe replaces them by
// it, so a schema location has one type unless the merge changes it, and
// locateCopies gives the copies left a location of their own.

// dedupe replaces each merged copy whose Go type equals its node's own
// type by that type.
func (b *builder) dedupe() {
	own := map[string]*ir.Type{}
	for _, t := range b.pkg.Types {
		if _, copied := b.copies[t]; !copied {
			if _, seen := own[t.Loc.String()]; !seen {
				own[t.Loc.String()] = t
			}
		}
	}
	repl := map[*ir.Type]*ir.Type{}
	for _, t := range b.pkg.Types {
		n := own[t.Loc.String()]
		if _, copied := b.copies[t]; !copied || n == nil || repl[t] != nil {
			continue
		}
		eq := typeEq{copies: b.copies, pairs: map[*ir.Type]*ir.Type{}}
		if eq.types(t, n) {
			for c, o := range eq.pairs {
				if c != o {
					repl[c] = o
				}
			}
		}
	}
	if len(repl) == 0 {
		return
	}
	swap := func(t *ir.Type) *ir.Type {
		if r, ok := repl[t]; ok {
			return r
		}
		return t
	}
	kept := b.pkg.Types[:0]
	for _, t := range b.pkg.Types {
		if repl[t] != nil {
			delete(b.copies, t)
			continue
		}
		kept = append(kept, t)
	}
	b.pkg.Types = kept
	for _, t := range b.pkg.Types {
		forEachRef(t, func(r *ir.Ref) {
			if r.Kind == ir.RefNamed {
				r.Named = swap(r.Named)
			}
		})
		if t.Parent != nil {
			t.Parent = swap(t.Parent)
		}
		if t.AltParent != nil {
			t.AltParent = swap(t.AltParent)
		}
	}
	for into, c := range b.copies {
		b.copies[into] = swap(c)
	}
	for n, t := range b.named {
		b.named[n] = swap(t)
	}
	for n, t := range b.armNodes {
		b.armNodes[n] = swap(t)
	}
}

// locateCopies gives each merged copy left a location no other type has:
// a merged union arm, and whatever is merged inside one, is identified
// with the merge (ir.Type.Merged); another merged property takes the node
// of the merging schema's file that declares it, or else is identified
// with the type it was made for.
func (b *builder) locateCopies() {
	taken := map[string]bool{}
	for _, t := range b.pkg.Types {
		if _, copied := b.copies[t]; !copied {
			taken[t.Key()] = true
		}
	}
	done := map[*ir.Type]bool{}
	var locate func(t *ir.Type)
	locate = func(t *ir.Type) {
		into, copied := b.copies[t]
		if !copied || t.Merged.File != "" || done[t] {
			return
		}
		done[t] = true
		locate(into) // the type it was made for first: where it lies decides
		if into.Merged.File != "" {
			t.Merged, t.MergedID = into.Merged, into.MergedID
			taken[t.Key()] = true
			return
		}
		home := into.Loc.File
		for i := len(b.mergedFrom[t]) - 1; i >= 0; i-- {
			if s := b.mergedFrom[t][i]; s.Loc.File == home && !taken[s.Loc.String()] {
				t.Loc, t.SchemaID = s.Loc, s.Doc.ID
				break
			}
		}
		if taken[t.Key()] {
			t.Merged, t.MergedID = into.Loc, into.SchemaID
		}
		taken[t.Key()] = true
	}
	for _, t := range b.pkg.Types {
		locate(t)
	}
}

// typeEq decides whether a copy is the same Go type as another type,
// pairing the copies under it with the types they equal.
type typeEq struct {
	copies map[*ir.Type]*ir.Type
	pairs  map[*ir.Type]*ir.Type
}

func (e *typeEq) types(c, n *ir.Type) bool {
	if c == n {
		return true
	}
	if p, ok := e.pairs[c]; ok {
		return p == n
	}
	if _, copied := e.copies[c]; !copied {
		return false
	}
	e.pairs[c] = n // assumed while comparing: a recursive type meets itself
	if c.Kind != n.Kind || c.Nullable != n.Nullable || c.EnumBase != n.EnumBase || c.RawReason != n.RawReason ||
		!e.refs(c.Underlying, n.Underlying) || len(c.Fields) != len(n.Fields) || len(c.Patterns) != len(n.Patterns) ||
		c.Extra.Mode != n.Extra.Mode || !e.refs(c.Extra.Type, n.Extra.Type) || len(c.Values) != len(n.Values) {
		return false
	}
	for i, f := range c.Fields {
		g := n.Fields[i]
		if f.JSONName != g.JSONName || f.Required != g.Required || f.Fixed != g.Fixed || f.Indirect != g.Indirect ||
			!sameValue(f.Const, g.Const) || !e.refs(f.Type, g.Type) {
			return false
		}
	}
	for i, p := range c.Patterns {
		if p.Pattern != n.Patterns[i].Pattern || !e.refs(p.Type, n.Patterns[i].Type) {
			return false
		}
	}
	for i, v := range c.Values {
		if v.Value.JSON() != n.Values[i].Value.JSON() {
			return false
		}
	}
	if (c.Union == nil) != (n.Union == nil) {
		return false
	}
	if c.Union != nil {
		return e.unions(c.Union, n.Union)
	}
	return true
}

func (e *typeEq) unions(c, n *ir.Union) bool {
	if c.Strategy != n.Strategy || c.Exclusive != n.Exclusive || !slices.Equal(c.DiscProps, n.DiscProps) ||
		!slices.Equal(c.ProbeKeys, n.ProbeKeys) || len(c.Arms) != len(n.Arms) {
		return false
	}
	for i, a := range c.Arms {
		o := n.Arms[i]
		if a.Label != o.Label || !slices.Equal(a.Kinds, o.Kinds) || !slices.Equal(a.Required, o.Required) ||
			!slices.Equal(a.Forbidden, o.Forbidden) || !sameConsts(a.Excluded, o.Excluded) || !sameConsts(a.Fixed, o.Fixed) ||
			len(a.Disc) != len(o.Disc) || !e.refs(a.Type, o.Type) {
			return false
		}
		for j, vals := range a.Disc {
			if len(vals) != len(o.Disc[j]) {
				return false
			}
			for k, v := range vals {
				if v.JSON() != o.Disc[j][k].JSON() {
					return false
				}
			}
		}
	}
	return true
}

func (e *typeEq) refs(c, n *ir.Ref) bool {
	if c == nil || n == nil {
		return c == n
	}
	if c.Kind != n.Kind || c.Builtin != n.Builtin || !sameValue(c.Const, n.Const) {
		return false
	}
	switch c.Kind {
	case ir.RefNamed:
		return e.types(c.Named, n.Named)
	case ir.RefSlice, ir.RefMap, ir.RefNullable:
		return e.refs(c.Elem, n.Elem)
	}
	return true
}

func sameValue(a, b *schema.Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.JSON() == b.JSON()
}

func sameConsts(a, b []ir.ConstPresent) bool {
	return slices.EqualFunc(a, b, func(x, y ir.ConstPresent) bool { return x.Key == y.Key && x.Value.JSON() == y.Value.JSON() })
}

// forEachRef calls fn on every type expression of t, nested ones included.
func forEachRef(t *ir.Type, fn func(*ir.Ref)) {
	var walk func(r *ir.Ref)
	walk = func(r *ir.Ref) {
		if r == nil {
			return
		}
		fn(r)
		walk(r.Elem)
	}
	walk(t.Underlying)
	walk(t.Extra.Type)
	for _, f := range t.Fields {
		walk(f.Type)
	}
	for _, p := range t.Patterns {
		walk(p.Type)
	}
	if t.Union != nil {
		for _, a := range t.Union.Arms {
			walk(a.Type)
		}
	}
}
