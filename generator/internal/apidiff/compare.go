package apidiff

import (
	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// Compare reports how the Go API of to differs from that of from. Both
// packages must have been through the naming pass. from and to describe the
// sides in the report; their type, tool and code counts are filled in.
func Compare(oldPkg, newPkg *ir.Package, from, to Side) *Report {
	c := &comparer{renamed: map[*ir.Type]*ir.Type{}, newOf: map[*ir.Type]*ir.Type{}, renameAt: map[*ir.Type]int{}}
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
	// renameAt is where each renamed old type's change sits in the report.
	renameAt map[*ir.Type]int
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

// types pairs old and new types and compares each pair. A type is what
// Go code names, so types pair by name first; the types left pair by
// identity: the same schema text (digest) under another name, the same
// place (schema key, outside union arms and allOf members, whose indexes
// move) under another name, the same place in an allOf member without its
// index (ir.PlaceOf: the members merge into one struct), then arms that
// the unions holding them pair (matchArms). A pair found by identity is a rename. What is left was
// removed or added.
func (c *comparer) types(oldTypes, newTypes []*ir.Type) {
	matched := map[*ir.Type]bool{} // new types with an old counterpart
	pair := func(o, n *ir.Type) {
		c.newOf[o] = n
		matched[n] = true
		if o.Name != n.Name {
			c.renamed[o] = n
		}
	}
	newByName := map[string]*ir.Type{}
	for _, n := range newTypes {
		newByName[n.Name] = n
	}
	for _, o := range oldTypes {
		if n := newByName[o.Name]; n != nil {
			pair(o, n)
		}
	}
	left := func() (olds, news []*ir.Type) {
		for _, o := range oldTypes {
			if _, ok := c.newOf[o]; !ok {
				olds = append(olds, o)
			}
		}
		for _, n := range newTypes {
			if !matched[n] {
				news = append(news, n)
			}
		}
		return olds, news
	}
	for _, by := range []func(*ir.Type) string{
		func(t *ir.Type) string { return t.Digest },
		func(t *ir.Type) string {
			if t.InArm() {
				return ""
			}
			return t.Key()
		},
		func(t *ir.Type) string {
			if p := t.Place(); p != t.Key() {
				return p
			}
			return ""
		},
	} {
		olds, news := left()
		oldAt, newAt := uniqueBy(olds, by), uniqueBy(news, by)
		for _, o := range olds {
			if k := by(o); k != "" && oldAt[k] == o && newAt[k] != nil {
				pair(o, newAt[k])
			}
		}
	}
	// Arms of paired unions that pair by what tells them apart, and the
	// types under them, until nothing more pairs.
	for more := true; more; {
		more = false
		for _, o := range oldTypes {
			n, ok := c.newOf[o]
			if !ok || o.Union == nil || n.Union == nil {
				continue
			}
			for _, m := range c.matchArms(o.Union.Arms, n.Union.Arms) {
				ot, nt := ir.NamedOf(m.old.Type), ir.NamedOf(m.new.Type)
				if ot == nil || nt == nil || matched[nt] {
					continue
				}
				if _, done := c.newOf[ot]; done {
					continue
				}
				pair(ot, nt)
				more = true
			}
		}
	}
	olds, news := left()
	for _, o := range oldTypes {
		if n, ok := c.renamed[o]; ok {
			c.renameAt[o] = len(c.report.Changes)
			c.add(Change{Category: CatTypes, Kind: TypeRenamed, Breaking: true, Type: n.Name, From: o.Name, To: n.Name,
				Schema: n.Loc.String(), Reason: "code naming the old name stops compiling"})
		}
	}
	for _, o := range olds {
		c.add(Change{Category: CatTypes, Kind: TypeRemoved, Breaking: true, Type: o.Name, From: kindName(o.Kind),
			Schema: o.Loc.String(), Reason: "code naming it stops compiling"})
	}
	for _, n := range news {
		c.add(Change{Category: CatTypes, Kind: TypeAdded, Type: n.Name, To: kindName(n.Kind),
			Schema: n.Loc.String(), Reason: "a new name"})
	}
	for _, o := range oldTypes {
		if n, ok := c.newOf[o]; ok {
			c.typePair(o, n)
		}
	}
}

// uniqueBy maps each non-empty key to its type; nil marks a key several
// types share, which identifies none of them.
func uniqueBy(types []*ir.Type, key func(*ir.Type) string) map[string]*ir.Type {
	m := map[string]*ir.Type{}
	for _, t := range types {
		if k := key(t); k != "" {
			claimLoc(m, k, t)
		}
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
	if o.Name == n.Name && o.Key() != n.Key() && o.Digest != n.Digest && !o.InArm() && !n.InArm() {
		// The name stands for another schema now (another took it, or
		// this one moved and changed): code compiles, members are compared.
		c.add(Change{Category: CatTypes, Kind: TypeSchemaChanged, Type: n.Name, From: o.Key(), To: n.Key(),
			Schema: n.Loc.String(), Reason: "the name is now generated from another schema"})
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
