package apidiff

import (
	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// Compare reports how the Go API of to differs from that of from. Both
// packages must have been through the naming pass. from and to describe the
// sides in the report; their type, tool and code counts are filled in.
func Compare(oldPkg, newPkg *ir.Package, from, to Side) *Report {
	c := &comparer{renamed: map[*ir.Type]*ir.Type{}, newOf: map[*ir.Type]*ir.Type{}}
	from.Types, from.Tools, from.Codes = counts(oldPkg)
	to.Types, to.Tools, to.Codes = counts(newPkg)
	c.report = &Report{From: from, To: to}
	c.types(oldPkg.Types, newPkg.Types)
	c.registry(oldPkg.Registry, newPkg.Registry)
	c.report.finish()
	return c.report
}

func counts(p *ir.Package) (types, tools, codes int) {
	if p.Registry != nil {
		tools, codes = len(p.Registry.Tools), len(p.Registry.Codes)
	}
	return len(p.Types), tools, codes
}

type comparer struct {
	report *Report
	// renamed maps an old type to the new type it was renamed to.
	renamed map[*ir.Type]*ir.Type
	// newOf maps every matched old type to its new counterpart.
	newOf map[*ir.Type]*ir.Type
}

func (c *comparer) add(ch Change) { c.report.Changes = append(c.report.Changes, ch) }

// oldName names an old type the way the new package would if nothing but
// renames had happened: comparing oldName-spelled and plainName-spelled
// types tells a real type change from one that only follows a rename.
func (c *comparer) oldName(t *ir.Type) string {
	if n, ok := c.renamed[t]; ok {
		return n.Name
	}
	return t.Name
}

// types pairs old and new types and compares each pair: first those with
// the same name and schema location, then the one old and one new type left
// at a location (a rename, even when another schema took the old name),
// then those left with the same name (a schema that moved).
func (c *comparer) types(oldTypes, newTypes []*ir.Type) {
	type key struct{ name, loc string }
	newByKey := map[key]*ir.Type{}
	for _, t := range newTypes {
		newByKey[key{t.Name, t.Loc.String()}] = t
	}
	matched := map[*ir.Type]bool{} // new types with an old counterpart
	pair := func(o, n *ir.Type) {
		c.newOf[o] = n
		matched[n] = true
	}
	for _, o := range oldTypes {
		if n, ok := newByKey[key{o.Name, o.Loc.String()}]; ok && !matched[n] {
			pair(o, n)
		}
	}
	unpaired := func(types []*ir.Type, done func(*ir.Type) bool) []*ir.Type {
		var out []*ir.Type
		for _, t := range types {
			if !done(t) {
				out = append(out, t)
			}
		}
		return out
	}
	oldLeft := unpaired(oldTypes, func(t *ir.Type) bool { _, ok := c.newOf[t]; return ok })
	newLeft := unpaired(newTypes, func(t *ir.Type) bool { return matched[t] })

	// Renames: one unpaired old and one unpaired new type at one location.
	oldAt := uniqueByLoc(oldLeft)
	newAt := uniqueByLoc(newLeft)
	for _, o := range oldLeft {
		n := newAt[o.Loc.String()]
		if n == nil || oldAt[o.Loc.String()] != o || n.Name == o.Name {
			continue
		}
		c.renamed[o] = n
		pair(o, n)
	}
	newByName := map[string]*ir.Type{}
	for _, n := range newLeft {
		if !matched[n] {
			newByName[n.Name] = n
		}
	}
	var goneOld []*ir.Type
	for _, o := range oldLeft {
		if _, ok := c.newOf[o]; ok {
			continue
		}
		if n, ok := newByName[o.Name]; ok && !matched[n] {
			pair(o, n)
			continue
		}
		goneOld = append(goneOld, o)
	}
	for _, o := range oldLeft {
		if _, ok := c.renamed[o]; ok {
			goneOld = append(goneOld, o)
		}
	}
	var freshNew []*ir.Type
	for _, n := range newTypes {
		if !matched[n] {
			freshNew = append(freshNew, n)
		}
	}

	for _, o := range goneOld {
		if n, ok := c.renamed[o]; ok {
			c.add(Change{Category: CatTypes, Kind: TypeRenamed, Breaking: true, Type: n.Name, From: o.Name, To: n.Name,
				Schema: n.Loc.String(), Reason: "code naming the old name stops compiling"})
			continue
		}
		c.add(Change{Category: CatTypes, Kind: TypeRemoved, Breaking: true, Type: o.Name, From: kindName(o.Kind),
			Schema: o.Loc.String(), Reason: "code naming it stops compiling"})
	}
	for _, n := range freshNew {
		c.add(Change{Category: CatTypes, Kind: TypeAdded, Type: n.Name, To: kindName(n.Kind),
			Schema: n.Loc.String(), Reason: "a new name"})
	}
	for _, o := range oldTypes {
		if n, ok := c.newOf[o]; ok {
			c.typePair(o, n)
		}
	}
}

// uniqueByLoc maps each location to its type; nil marks a location several
// types share, which cannot identify a rename.
func uniqueByLoc(types []*ir.Type) map[string]*ir.Type {
	m := map[string]*ir.Type{}
	for _, t := range types {
		claimLoc(m, t.Loc.String(), t)
	}
	return m
}

// typePair compares a type with its counterpart.
func (c *comparer) typePair(o, n *ir.Type) {
	if o.Kind != n.Kind {
		c.add(Change{Category: CatTypes, Kind: TypeKindChanged, Breaking: true, Type: n.Name,
			From: kindName(o.Kind), To: kindName(n.Kind), Schema: n.Loc.String(),
			Reason: "its declaration, fields and methods differ"})
		return
	}
	if !o.Deprecated && n.Deprecated {
		c.add(Change{Category: CatTypes, Kind: TypeDeprecated, Type: n.Name, Schema: n.Loc.String(),
			Reason: "still generated"})
	}
	if before, after := underlyingGo(o, plainName), underlyingGo(n, plainName); before != after {
		ch := Change{Category: CatTypes, Kind: TypeUnderlyingChanged, Breaking: true, Type: n.Name,
			From: before, To: after, Schema: n.Loc.String(), Reason: "conversions and literals stop compiling"}
		c.followsRename(&ch, underlyingGo(o, c.oldName))
		c.add(ch)
	}
	switch n.Kind {
	case ir.KindStruct:
		c.fields(o, n)
	case ir.KindEnum:
		c.enumValues(o, n)
	case ir.KindUnion:
		c.arms(o, n)
	}
}

// followsRename marks ch when the old Go spelling, with renamed types
// under their new names, equals ch.To: the change only follows a rename.
func (c *comparer) followsRename(ch *Change, oldRenamed string) {
	if oldRenamed == ch.To {
		ch.FollowsRename = true
		ch.Reason = "follows a type rename"
	}
}
