package lower

import (
	"strconv"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

// armInfo is one union alternative merged with the union's base.
type armInfo struct {
	index int
	node  *schema.Schema
	sh    *shape
	kinds typeSet
}

// clone copies a shape so an arm can add to it without touching the base.
func (sh *shape) clone() *shape {
	c := *sh
	c.byName = make(map[string]*prop, len(sh.props))
	c.props = make([]*prop, len(sh.props))
	for i, p := range sh.props {
		cp := *p
		cp.schemas = append([]*schema.Schema(nil), p.schemas...)
		c.props[i] = &cp
		c.byName[p.name] = &cp
	}
	c.required = append([]string(nil), sh.required...)
	c.additional = append([]*schema.Schema(nil), sh.additional...)
	c.patterns = append([]*schema.PatternProperty(nil), sh.patterns...)
	c.forbidden = append([]string(nil), sh.forbidden...)
	c.excluded = append([]ir.ConstPresent(nil), sh.excluded...)
	c.unions = nil
	return &c
}

// lowerUnion types a schema whose oneOf/anyOf says which types the value
// may have. Arms inherit the schema's own properties (the base).
func (b *builder) lowerUnion(sh *shape, self, parent *ir.Type, suffixes []string) (*ir.Ref, bool) {
	src := sh.unions[0]
	nullable := false
	var arms []*armInfo
	for i, a := range src.arms {
		ash := sh.clone()
		// An arm that refers back to the union ({"$ref": "#"}) must not
		// collect the union again.
		ash.collect(a, map[*schema.Schema]bool{sh.node: true, src.node: true})
		if len(ash.unions) > 0 && sh.typed && !ash.typed {
			ash.typed = true
		}
		k := ash.inferTypes()
		if ash.never || ash.constConflict() {
			continue // the base rules this arm out (type: "resource" against type: "agent")
		}
		if k == tNull || (k.has(tNull) && k.count() == 1 && ash.konst == nil && !ash.hasEnum && len(ash.props) == 0) {
			nullable = true
			continue
		}
		if k.has(tNull) {
			nullable = true
		}
		ash.node = a
		arms = append(arms, &armInfo{index: i, node: a, sh: ash, kinds: k &^ tNull})
	}
	switch len(arms) {
	case 0:
		return b.fallback(src.node.Loc.Child(src.keyword), false, "%s allows no value but null", src.keyword), false
	case 1:
		// One real alternative (the others null or false): it is the type,
		// the referenced one itself when the arm is a plain $ref.
		if target := aliasTarget(arms[0].node); target != nil && baseIsEmpty(sh) && isNamedNode(target) && self == nil {
			t := b.namedType(target)
			return ir.NamedRef(t), nullable || t.Nullable
		}
		single := arms[0].sh
		single.node = sh.node
		ref, n := b.lowerShape(single, self, parent, suffixes)
		return ref, n || nullable
	}
	if kindsDisjoint(arms) {
		return b.kindUnion(sh, arms, self, parent, suffixes, src.keyword == "oneOf"), nullable
	}
	if allObjects(arms) {
		return b.objectUnion(sh, src, arms, self, parent, suffixes), nullable
	}
	if merged := mergeScalarArms(arms); merged != nil {
		return merged(b, sh, self, parent, suffixes), nullable
	}
	// Arms overlap in JSON type (two kinds of array, say): try them in turn.
	return b.trialUnion(sh, src, arms, self, parent, suffixes), nullable
}

// trialUnion builds a union decoded by trying each arm in order.
func (b *builder) trialUnion(sh *shape, src *unionSrc, arms []*armInfo, self, parent *ir.Type, suffixes []string) *ir.Ref {
	u := b.unionType(self, sh, parent, suffixes)
	u.Union = &ir.Union{Strategy: ir.ByTrial, Exclusive: src.keyword == "oneOf"}
	labels := armLabels(arms, nil)
	for i, a := range arms {
		if a.kinds.count() == 1 && labels[i] == "Variant"+strconv.Itoa(i+1) {
			labels[i] = kindLabels[a.kinds&^tInteger|a.kinds&tInteger] + strconv.Itoa(i+1)
		}
	}
	for i, a := range arms {
		arm := &ir.Arm{Label: labels[i], Loc: a.node.Loc, Title: a.node.Title, Doc: a.node.Description}
		arm.Type = b.armRef(u, sh, a, labels[i])
		u.Union.Arms = append(u.Union.Arms, arm)
	}
	return ir.NamedRef(u)
}

// lowerKindUnion types "type": [several kinds] as a union by JSON kind.
func (b *builder) lowerKindUnion(sh *shape, types typeSet, self, parent *ir.Type, suffixes []string, nullable bool) (*ir.Ref, bool) {
	var arms []*armInfo
	for bit := tString; bit < tNull; bit <<= 1 {
		if !types.has(bit) || (bit == tInteger && types.has(tNumber)) {
			continue
		}
		ash := sh.clone()
		ash.types, ash.typed = bit, true
		if bit == tNumber && types.has(tInteger) {
			ash.types |= tInteger
		}
		arms = append(arms, &armInfo{index: len(arms), node: sh.node, sh: ash, kinds: ash.types})
	}
	return b.kindUnion(sh, arms, self, parent, suffixes, true), nullable
}

func kindsDisjoint(arms []*armInfo) bool {
	var seen typeSet
	for _, a := range arms {
		k := a.kinds
		if k == 0 || k.count() != 1 {
			return false
		}
		norm := k
		if norm.has(tInteger) {
			norm = (norm &^ tInteger) | tNumber
		}
		if seen&norm != 0 {
			// integer and number arms may coexist: integer is tried first.
			if !(norm == tNumber && (k == tInteger || seenOnly(arms, a, tInteger))) {
				return false
			}
		}
		seen |= norm
	}
	return true
}

// seenOnly reports whether the number-kind arms other than a are integers.
func seenOnly(arms []*armInfo, a *armInfo, k typeSet) bool {
	for _, o := range arms {
		if o != a && o.kinds.has(tNumber|tInteger) && o.kinds != k {
			return false
		}
	}
	return true
}

func allObjects(arms []*armInfo) bool {
	for _, a := range arms {
		if a.kinds != tObject {
			return false
		}
	}
	return true
}

// mergeScalarArms handles unions whose arms overlap only as strings (an enum
// beside a pattern, say): the Go type is a plain string. It returns nil when
// that does not apply.
func mergeScalarArms(arms []*armInfo) func(*builder, *shape, *ir.Type, *ir.Type, []string) *ir.Ref {
	for _, a := range arms {
		if a.kinds != tString {
			return nil
		}
	}
	return func(b *builder, sh *shape, self, parent *ir.Type, suffixes []string) *ir.Ref {
		return stringRef(arms[0].sh.format)
	}
}

var kindLabels = map[typeSet]string{tString: "String", tNumber: "Number", tInteger: "Integer", tBoolean: "Bool", tObject: "Object", tArray: "Array"}

var kindJSON = map[typeSet][]ir.JSONKind{
	tString: {ir.JSONString}, tNumber: {ir.JSONNumber}, tInteger: {ir.JSONInteger}, tBoolean: {ir.JSONBool},
	tObject: {ir.JSONObject}, tArray: {ir.JSONArray},
}

func (b *builder) unionType(self *ir.Type, sh *shape, parent *ir.Type, suffixes []string) *ir.Type {
	return b.need(self, sh, parent, suffixes, ir.KindUnion)
}

// kindUnion builds a union whose arms differ by JSON type.
func (b *builder) kindUnion(sh *shape, arms []*armInfo, self, parent *ir.Type, suffixes []string, exclusive bool) *ir.Ref {
	u := b.unionType(self, sh, parent, suffixes)
	u.Union = &ir.Union{Strategy: ir.ByKind, Exclusive: exclusive}
	for _, a := range arms {
		k := a.kinds
		if k == tNumber|tInteger {
			k = tNumber
		}
		label := kindLabels[k]
		arm := &ir.Arm{Label: label, Loc: a.node.Loc, Kinds: kindJSON[k]}
		if a.node != sh.node {
			arm.Title, arm.Doc = a.node.Title, a.node.Description
		}
		arm.Type = b.armRef(u, sh, a, label)
		u.Union.Arms = append(u.Union.Arms, arm)
	}
	return ir.NamedRef(u)
}

// armRef types one arm: the referenced type itself when the arm is a plain
// $ref and the base adds nothing, else a type for the merged shape, keyed by
// union and position (a bare $ref to the same node elsewhere gets its own).
func (b *builder) armRef(u *ir.Type, base *shape, a *armInfo, label string) *ir.Ref {
	if a.node != base.node && baseIsEmpty(base) {
		// The arm is exactly its own node: share that node's type with any
		// $ref to it (…-response.json#/oneOf/0).
		if target := aliasTarget(a.node); target != nil && isNamedNode(target) {
			return ir.NamedRef(b.namedType(target))
		}
		return wrapNullable(b.lowerShape(collectShape(a.node), nil, u, []string{label}))
	}
	key := armKey{union: base.node, index: a.index}
	if t, ok := b.arms[key]; ok {
		return ir.NamedRef(t)
	}
	t := detachedType(a.node, u, label, a.node != base.node)
	t.Deprecated = a.node.Deprecated // a deprecated arm; a merged property's flag stays on its field
	b.arms[key] = t
	a.sh.node = a.node
	ref, kept := b.adopt(t, a.sh)
	if !kept {
		delete(b.arms, key)
		return ref
	}
	switch {
	case !under(a.node.Loc, base.node.Loc):
		// The union comes from another place (allOf): a copy of its arm
		// with this schema's members, made for this union.
		b.copies[t] = u
		t.Merged, t.MergedID = base.node.Loc, base.node.Doc.ID
	case a.node != base.node:
		if _, taken := b.armNodes[a.node]; !taken {
			b.armNodes[a.node] = t
		}
	}
	return ir.NamedRef(t)
}

// detachedType makes a type for a shape lowered on its own (a union arm, a
// merged property), named after parent + suffix or its title.
func detachedType(node *schema.Schema, parent *ir.Type, suffix string, useTitle bool) *ir.Type {
	t := &ir.Type{Loc: node.Loc, SchemaID: node.Doc.ID, Title: node.Title, Description: node.Description,
		Rank: rankInline, Parent: parent, Suffixes: []string{suffix}}
	if h := ownName(titleName(node.Title)); h != "" && useTitle {
		t.Hints = []string{h}
	}
	return t
}

// adopt lowers sh into the detached type t and keeps t when the shape
// needs a named type (struct, enum, union); otherwise the value is a plain
// Go type, t is dropped and the types made below it are named after t's
// parent instead. It reports whether t was kept.
func (b *builder) adopt(t *ir.Type, sh *shape) (*ir.Ref, bool) {
	ref, nullable := b.lowerShape(sh, t, nil, nil)
	if t.Kind == 0 {
		b.reparent(t, t.Parent, t.Suffixes[0])
		return wrapNullable(ref, nullable), false
	}
	t.Nullable = nullable
	b.pkg.Types = append(b.pkg.Types, t)
	return ir.NamedRef(t), true
}

// reparent moves the children of a discarded type under another parent.
func (b *builder) reparent(from, to *ir.Type, label string) {
	for _, t := range b.pkg.Types {
		if t.Parent == from {
			t.Parent = to
			t.Suffixes = prefixAll(label, t.Suffixes)
		}
	}
}

func prefixAll(prefix string, list []string) []string {
	if len(list) == 0 {
		return []string{prefix}
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = prefix + s
	}
	return out
}

// under reports whether loc is anc or lies inside it.
func under(loc, anc schema.Loc) bool {
	return loc.File == anc.File && (anc.Pointer == "" || loc.Pointer == anc.Pointer ||
		len(loc.Pointer) > len(anc.Pointer) && loc.Pointer[:len(anc.Pointer)] == anc.Pointer && loc.Pointer[len(anc.Pointer)] == '/')
}

// baseIsEmpty reports a union base that contributes nothing to its arms.
func baseIsEmpty(sh *shape) bool {
	return len(sh.props) == 0 && len(sh.required) == 0 && len(sh.additional) == 0 && !sh.addFalse
}

// objectUnion builds a union of object arms and chooses how to tell them
// apart: const discriminators, then key presence, then trial decoding.
func (b *builder) objectUnion(sh *shape, src *unionSrc, arms []*armInfo, self, parent *ir.Type, suffixes []string) *ir.Ref {
	u := b.unionType(self, sh, parent, suffixes)
	un := &ir.Union{Exclusive: src.keyword == "oneOf"}
	u.Union = un
	disc := findDiscriminator(src.node, arms)
	switch {
	case disc != nil:
		un.Strategy = ir.ByConst
		un.DiscProps = disc.props
		un.ProbeKeys = disc.props
	case presenceWorks(arms, sh):
		un.Strategy = ir.ByPresence
	default:
		un.Strategy = ir.ByTrial
	}
	labels := armLabels(arms, disc)
	for i, a := range arms {
		arm := &ir.Arm{Label: labels[i], Loc: a.node.Loc, Title: a.node.Title, Doc: a.node.Description, Kinds: []ir.JSONKind{ir.JSONObject}}
		if disc != nil {
			arm.Disc = disc.values[i]
		}
		if un.Strategy == ir.ByPresence {
			fillPresence(arm, a, sh)
		}
		arm.Type = b.armRef(u, sh, a, labels[i])
		un.Arms = append(un.Arms, arm)
	}
	if un.Strategy == ir.ByPresence {
		un.ProbeKeys = presenceKeys(un.Arms)
	}
	return ir.NamedRef(u)
}

// discriminator is the property tuple whose const values pick an arm.
type discriminator struct {
	props  []string
	values [][][]schema.Value // per arm, per prop: accepted values (nil: any)
}

// findDiscriminator looks for OpenAPI's discriminator.propertyName, then a
// property every arm fixes to distinct values, then a pair of properties
// (type, then value_type) that does so together.
func findDiscriminator(node *schema.Schema, arms []*armInfo) *discriminator {
	var candidates []string
	if node.Discriminator != nil && node.Discriminator.PropertyName != "" {
		candidates = append(candidates, node.Discriminator.PropertyName)
	}
	for _, a := range arms {
		for _, p := range a.sh.props {
			candidates = appendUnique(candidates, p.name)
		}
	}
	for _, p := range candidates {
		vals, ok := armValues(arms, p)
		if ok && pairwiseDisjoint(vals) {
			d := &discriminator{props: []string{p}}
			for _, v := range vals {
				d.values = append(d.values, [][]schema.Value{v})
			}
			return d
		}
	}
	// Compound: p1 fixed in every arm; arms sharing p1 values differ by p2.
	for _, p1 := range candidates {
		v1, ok := armValues(arms, p1)
		if !ok {
			continue
		}
		for _, p2 := range candidates {
			if p2 == p1 {
				continue
			}
			if d := compound(arms, p1, p2, v1); d != nil {
				return d
			}
		}
	}
	return nil
}

func compound(arms []*armInfo, p1, p2 string, v1 [][]schema.Value) *discriminator {
	d := &discriminator{props: []string{p1, p2}}
	for i := range arms {
		var second []schema.Value
		for j := range arms {
			if i == j {
				continue
			}
			if disjoint(v1[i], v1[j]) {
				continue
			}
			if !sameValues(v1[i], v1[j]) {
				return nil // overlapping but different sets: ambiguous
			}
			vi, ok1 := propValues(arms[i].sh, p2)
			vj, ok2 := propValues(arms[j].sh, p2)
			if !ok1 || !ok2 || !disjoint(vi, vj) {
				return nil
			}
			second = vi
		}
		d.values = append(d.values, [][]schema.Value{v1[i], second})
	}
	return d
}

// armValues returns, per arm, the values property p is fixed to.
func armValues(arms []*armInfo, p string) ([][]schema.Value, bool) {
	out := make([][]schema.Value, len(arms))
	for i, a := range arms {
		v, ok := propValues(a.sh, p)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// propValues returns the values a required property is limited to (const or
// enum of scalars).
func propValues(sh *shape, name string) ([]schema.Value, bool) {
	p := sh.byName[name]
	if p == nil || !(p.required || sh.isRequired(name)) {
		return nil, false
	}
	for i := len(p.schemas) - 1; i >= 0; i-- {
		s := p.schemas[i]
		if c := constOf(s); c != nil {
			return []schema.Value{*c}, scalar(*c)
		}
		if d := schema.Deref(s); d != nil && len(d.Enum) > 0 {
			for _, v := range d.Enum {
				if !scalar(v) {
					return nil, false
				}
			}
			return d.Enum, true
		}
	}
	return nil, false
}

func scalar(v schema.Value) bool {
	k := v.Node.Kind
	return k == jsonsrc.String || k == jsonsrc.Bool || k == jsonsrc.Number
}

func pairwiseDisjoint(vals [][]schema.Value) bool {
	for i := range vals {
		for j := i + 1; j < len(vals); j++ {
			if !disjoint(vals[i], vals[j]) {
				return false
			}
		}
	}
	return true
}

func disjoint(a, b []schema.Value) bool {
	for _, x := range a {
		for _, y := range b {
			if x.JSON() == y.JSON() {
				return false
			}
		}
	}
	return true
}

func sameValues(a, b []schema.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if disjoint([]schema.Value{x}, b) {
			return false
		}
	}
	return true
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// presenceWorks reports whether every arm has something to test: a required
// key of its own, a forbidden key or a fixed value.
func presenceWorks(arms []*armInfo, base *shape) bool {
	for _, a := range arms {
		if len(ownRequired(a.sh, base)) == 0 && len(a.sh.forbidden) == 0 && len(a.sh.excluded) == 0 {
			return false
		}
	}
	return true
}

// ownRequired lists the arm's required keys that the base does not require.
func ownRequired(arm, base *shape) []string {
	var out []string
	for _, r := range arm.required {
		if !base.isRequired(r) {
			out = append(out, r)
		}
	}
	return out
}

func fillPresence(arm *ir.Arm, a *armInfo, base *shape) {
	for _, r := range ownRequired(a.sh, base) {
		if vals, ok := propValues(a.sh, r); ok && len(vals) == 1 {
			arm.Fixed = append(arm.Fixed, ir.ConstPresent{Key: r, Value: vals[0]})
			continue
		}
		arm.Required = append(arm.Required, r)
	}
	// A key the base requires too still tells arms apart when the arm fixes
	// its value (status: submitted).
	for _, r := range a.sh.required {
		if !base.isRequired(r) {
			continue
		}
		if vals, ok := propValues(a.sh, r); ok && len(vals) == 1 {
			if bv, ok := propValues(base, r); !ok || len(bv) != 1 || bv[0].JSON() != vals[0].JSON() {
				arm.Fixed = append(arm.Fixed, ir.ConstPresent{Key: r, Value: vals[0]})
			}
		}
	}
	arm.Forbidden = append(arm.Forbidden, a.sh.forbidden...)
	arm.Excluded = append(arm.Excluded, a.sh.excluded...)
}

func presenceKeys(arms []*ir.Arm) []string {
	var keys []string
	for _, a := range arms {
		for _, k := range a.Required {
			keys = appendUnique(keys, k)
		}
		for _, k := range a.Forbidden {
			keys = appendUnique(keys, k)
		}
		for _, c := range a.Fixed {
			keys = appendUnique(keys, c.Key)
		}
		for _, c := range a.Excluded {
			keys = appendUnique(keys, c.Key)
		}
	}
	return keys
}

// armLabels names arms: by discriminator values, else title, else the
// referenced schema's title or file, else position.
func armLabels(arms []*armInfo, disc *discriminator) []string {
	out := make([]string, len(arms))
	for i, a := range arms {
		label := titleName(a.node.Title)
		if label == "" && disc != nil {
			for _, vals := range disc.values[i] {
				if len(vals) == 1 {
					label += naming.ValueLabel(vals[0])
				}
			}
		}
		if label == "" {
			if t := aliasTarget(a.node); t != nil {
				if label = titleName(t.Title); label == "" && t.Loc.Pointer == "" {
					label = fileName(t.Doc.Path)
				}
			}
		}
		if label == "" {
			label = "Variant" + strconv.Itoa(i+1)
		}
		out[i] = label
	}
	// Keep labels unique: a clash takes its position as a suffix.
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[i] == out[j] {
				out[j] += strconv.Itoa(j + 1)
			}
		}
	}
	return out
}
