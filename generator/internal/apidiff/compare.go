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

// types matches types by name, then unmatched ones by schema location, and
// compares each pair.
func (c *comparer) types(oldTypes, newTypes []*ir.Type) {
	newByName := map[string]*ir.Type{}
	for _, t := range newTypes {
		newByName[t.Name] = t
	}
	oldByName := map[string]*ir.Type{}
	var goneOld []*ir.Type
	for _, t := range oldTypes {
		oldByName[t.Name] = t
		if n, ok := newByName[t.Name]; ok {
			c.newOf[t] = n
		} else {
			goneOld = append(goneOld, t)
		}
	}
	var freshNew []*ir.Type
	for _, t := range newTypes {
		if _, ok := oldByName[t.Name]; !ok {
			freshNew = append(freshNew, t)
		}
	}

	// Renames: one unmatched old and one unmatched new type at one location.
	oldAt := uniqueByLoc(goneOld)
	newAt := uniqueByLoc(freshNew)
	for loc, o := range oldAt {
		if n, ok := newAt[loc]; ok && o != nil && n != nil {
			c.renamed[o] = n
			c.newOf[o] = n
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
	renamedTo := map[*ir.Type]bool{}
	for _, n := range c.renamed {
		renamedTo[n] = true
	}
	for _, n := range freshNew {
		if renamedTo[n] {
			continue
		}
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
