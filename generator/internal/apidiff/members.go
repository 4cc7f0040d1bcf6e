package apidiff

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// extraMember is the Member of changes about a struct's undeclared members.
const extraMember = "additionalProperties"

// fields compares two structs field by field (matched by JSON name).
func (c *comparer) fields(o, n *ir.Type) {
	oldBy := map[string]*ir.Field{}
	for _, fl := range o.Fields {
		oldBy[fl.JSONName] = fl
	}
	newBy := map[string]*ir.Field{}
	for _, fl := range n.Fields {
		newBy[fl.JSONName] = fl
	}
	for _, of := range o.Fields {
		if _, ok := newBy[of.JSONName]; !ok {
			c.fieldRemoved(n, of)
		}
	}
	for _, nf := range n.Fields {
		of, ok := oldBy[nf.JSONName]
		if !ok {
			c.fieldAdded(n, nf)
			continue
		}
		c.fieldPair(n, of, nf)
	}
	c.patterns(o, n)
	c.extra(o, n)
}

// patterns compares the maps of members matching patternProperties,
// matched by pattern.
func (c *comparer) patterns(o, n *ir.Type) {
	oldBy := map[string]*ir.PatternField{}
	for _, p := range o.Patterns {
		oldBy[p.Pattern] = p
	}
	newBy := map[string]*ir.PatternField{}
	for _, p := range n.Patterns {
		newBy[p.Pattern] = p
	}
	base := Change{Category: CatFields, Type: n.Name, Schema: n.Loc.String()}
	for _, op := range o.Patterns {
		if _, ok := newBy[op.Pattern]; !ok {
			ch := base
			ch.Kind, ch.Breaking, ch.Member, ch.GoName = FieldRemoved, true, patternMember(op), op.GoName
			ch.From, ch.Reason = patternGo(op, plainName), "code using it stops compiling"
			c.add(ch)
		}
	}
	for _, np := range n.Patterns {
		op, ok := oldBy[np.Pattern]
		ch := base
		ch.Member, ch.GoName = patternMember(np), np.GoName
		switch {
		case !ok:
			ch.Kind, ch.To, ch.Reason = FieldAdded, patternGo(np, plainName), "members matching the pattern are typed"
			c.add(ch)
		case op.GoName != np.GoName || patternGo(op, c.oldName) != patternGo(np, plainName):
			ch.Kind, ch.Breaking = FieldTypeChanged, true
			ch.From, ch.To = op.GoName+" "+patternGo(op, plainName), np.GoName+" "+patternGo(np, plainName)
			ch.Reason = "code using the field stops compiling"
			c.followsRename(&ch, op.GoName+" "+patternGo(op, c.oldName))
			c.add(ch)
		}
	}
}

func patternMember(p *ir.PatternField) string { return "patternProperties " + p.Pattern }

func (c *comparer) fieldRemoved(n *ir.Type, of *ir.Field) {
	ch := Change{Category: CatFields, Kind: FieldRemoved, Breaking: true, Type: n.Name, Member: of.JSONName,
		GoName: of.GoName, From: fieldShape(of, plainName), Schema: of.Loc.String(),
		Reason: "code using it stops compiling"}
	if of.Fixed {
		// A fixed member had no Go field: only a strict decoder notices.
		ch.GoName = ""
		ch.Breaking = n.Extra.Mode == ir.ExtraReject
		ch.Reason = "had no Go field"
		if ch.Breaking {
			ch.Reason = "payloads that still carry it fail to decode"
		}
	}
	c.add(ch)
}

func (c *comparer) fieldAdded(n *ir.Type, nf *ir.Field) {
	ch := Change{Category: CatFields, Kind: FieldAdded, Type: n.Name, Member: nf.JSONName, GoName: nf.GoName,
		To: fieldShape(nf, plainName), Schema: nf.Loc.String(), Reason: "optional"}
	switch {
	case nf.Fixed:
		ch.GoName = ""
		ch.Breaking = nf.Required
		ch.Reason = "fixed: encoders write it"
		if nf.Required {
			ch.Reason = "payloads without it fail to decode"
		}
	case nf.Required:
		ch.Breaking = true
		ch.Reason = "encoders must set it; payloads without it fail to decode"
	}
	c.add(ch)
}

// fieldPair compares a field with its counterpart.
func (c *comparer) fieldPair(n *ir.Type, of, nf *ir.Field) {
	base := Change{Category: CatFields, Type: n.Name, Member: nf.JSONName, GoName: nf.GoName, Schema: nf.Loc.String()}
	if nf.Fixed {
		base.GoName = ""
	}
	if of.GoName != nf.GoName && !of.Fixed && !nf.Fixed {
		ch := base
		ch.Kind, ch.Breaking, ch.From, ch.To = FieldRenamed, true, of.GoName, nf.GoName
		ch.Reason = "code using the old name stops compiling"
		c.add(ch)
	}
	before, after := fieldShape(of, plainName), fieldShape(nf, plainName)
	switch {
	case !of.Required && nf.Required:
		ch := base
		ch.Kind, ch.Breaking, ch.From, ch.To = FieldRequired, true, before, after
		switch {
		case of.Fixed || nf.Fixed && before == after:
			ch.Reason = "payloads without it fail to decode"
		case nf.Fixed:
			ch.Reason = "the Go field is gone (the value is now fixed); payloads without it fail to decode"
		case before != after:
			ch.Reason = "encoders must set it; payloads without it fail to decode; its Go type changed"
		default:
			ch.Reason = "encoders must set it; payloads without it fail to decode"
		}
		c.add(ch)
	case of.Required && !nf.Required:
		ch := base
		ch.Kind, ch.From, ch.To = FieldOptional, before, after
		ch.Reason = "decoding accepts payloads without it"
		if before != after && !of.Fixed {
			ch.Breaking, ch.Reason = true, "its Go type changed: reads and writes stop compiling"
		}
		c.add(ch)
	case before != after:
		ch := base
		ch.Kind, ch.Breaking, ch.From, ch.To = FieldTypeChanged, true, before, after
		ch.Reason = "reads, writes and literals stop compiling"
		switch {
		case of.Fixed:
			// No Go code referred to a fixed member.
			ch.Reason = "was fixed and written by encoders; now a field they must set"
			ch.Breaking = nf.Required
			if !nf.Required {
				ch.Reason = "was fixed; now an optional field"
			}
		case nf.Fixed:
			ch.Reason = "the Go field is gone: the value is now fixed"
		default:
			c.followsRename(&ch, fieldShape(of, c.oldName))
		}
		c.add(ch)
	}
	if !of.Deprecated && nf.Deprecated {
		ch := base
		ch.Kind = FieldDeprecated
		ch.Reason = "still generated"
		c.add(ch)
	}
}

// extra compares what two structs do with members they do not declare.
func (c *comparer) extra(o, n *ir.Type) {
	before, after := extraGo(o, plainName), extraGo(n, plainName)
	base := Change{Category: CatFields, Type: n.Name, Member: extraMember, Schema: n.Loc.String()}
	switch {
	case before == "" && after != "":
		ch := base
		ch.Kind, ch.GoName, ch.To = ExtraKept, n.Extra.GoName, after
		ch.Reason = "undeclared members are kept instead of rejected"
		c.add(ch)
	case before != "" && after == "":
		ch := base
		ch.Kind, ch.Breaking, ch.GoName, ch.From = ExtraRejected, true, o.Extra.GoName, before
		ch.Reason = "the field that kept undeclared members is gone; they now fail to decode"
		c.add(ch)
	case before != after || o.Extra.GoName != n.Extra.GoName:
		ch := base
		ch.Kind, ch.Breaking, ch.GoName = ExtraTypeChanged, true, n.Extra.GoName
		ch.From, ch.To = o.Extra.GoName+" "+before, n.Extra.GoName+" "+after
		ch.Reason = "code using the field of undeclared members stops compiling"
		c.followsRename(&ch, o.Extra.GoName+" "+extraGo(o, c.oldName))
		c.add(ch)
	}
}

// enumValues compares two enums value by value.
func (c *comparer) enumValues(o, n *ir.Type) {
	oldBy := map[string]*ir.EnumValue{}
	for _, v := range o.Values {
		oldBy[v.Value.JSON()] = v
	}
	newBy := map[string]*ir.EnumValue{}
	for _, v := range n.Values {
		newBy[v.Value.JSON()] = v
	}
	base := Change{Category: CatEnums, Type: n.Name, Schema: n.Loc.String()}
	for _, ov := range o.Values {
		if _, ok := newBy[ov.Value.JSON()]; !ok {
			ch := base
			ch.Kind, ch.Breaking, ch.Member, ch.GoName = EnumValueRemoved, true, ov.Value.JSON(), ov.GoName
			ch.Reason = "code naming the constant stops compiling (the value still decodes: enums are open)"
			c.add(ch)
		}
	}
	for _, nv := range n.Values {
		key := nv.Value.JSON()
		ov, ok := oldBy[key]
		ch := base
		ch.Member, ch.GoName = key, nv.GoName
		switch {
		case !ok:
			ch.Kind = EnumValueAdded
			ch.Reason = "enums are open: old decoders already accepted it"
			c.add(ch)
			continue
		case ov.GoName != nv.GoName:
			ch.Kind, ch.Breaking, ch.From, ch.To = EnumConstRenamed, true, ov.GoName, nv.GoName
			ch.Reason = "code using the old name stops compiling"
			c.followsRename(&ch, c.oldName(o)+strings.TrimPrefix(ov.GoName, o.Name))
			c.add(ch)
		}
		if !ov.Deprecated && nv.Deprecated {
			ch.Kind, ch.Breaking, ch.From, ch.To, ch.FollowsRename = EnumValueDeprecated, false, "", "", false
			ch.Reason = "still defined"
			c.add(ch)
		}
	}
}

// armPair is an old arm and the new arm it is.
type armPair struct{ old, new *ir.Arm }

// matchArms pairs the arms of two unions by identity, never by position:
// the same field name; then the same type (types paired already); then,
// among the arms left, what tells an arm apart: its discriminator values,
// its title, its label, its required keys with the JSON kinds it takes.
// Each pass pairs only what it pairs one to one.
func (c *comparer) matchArms(olds, news []*ir.Arm) []armPair {
	var pairs []armPair
	usedOld, usedNew := map[*ir.Arm]bool{}, map[*ir.Arm]bool{}
	pass := func(key func(a *ir.Arm, old bool) string) {
		oldBy, newBy := map[string]*ir.Arm{}, map[string]*ir.Arm{}
		for _, a := range olds {
			if k := key(a, true); k != "" && !usedOld[a] {
				claimLoc(oldBy, k, a)
			}
		}
		for _, a := range news {
			if k := key(a, false); k != "" && !usedNew[a] {
				claimLoc(newBy, k, a)
			}
		}
		for _, o := range olds {
			k := key(o, true)
			if k == "" || usedOld[o] || oldBy[k] != o || newBy[k] == nil {
				continue
			}
			usedOld[o], usedNew[newBy[k]] = true, true
			pairs = append(pairs, armPair{o, newBy[k]})
		}
	}
	pass(func(a *ir.Arm, _ bool) string { return a.GoName })
	pass(func(a *ir.Arm, old bool) string {
		t := ir.NamedOf(a.Type)
		if t == nil {
			return ""
		}
		if old {
			if n, ok := c.newOf[t]; ok {
				return n.Name
			}
			return ""
		}
		return t.Name
	})
	pass(func(a *ir.Arm, _ bool) string { return discKey(a) })
	pass(func(a *ir.Arm, _ bool) string { return a.Title })
	pass(func(a *ir.Arm, _ bool) string { return a.Label })
	pass(func(a *ir.Arm, _ bool) string {
		if len(a.Required) == 0 {
			return ""
		}
		return strings.Join(a.Required, ",") + fmt.Sprint(a.Kinds)
	})
	sort.SliceStable(pairs, func(i, j int) bool { return slices.Index(olds, pairs[i].old) < slices.Index(olds, pairs[j].old) })
	return pairs
}

// discKey spells an arm's discriminator values ("" without).
func discKey(a *ir.Arm) string {
	var b strings.Builder
	for _, vals := range a.Disc {
		for _, v := range vals {
			b.WriteString(v.JSON())
			b.WriteByte(',')
		}
		b.WriteByte(';')
	}
	for _, f := range a.Fixed {
		b.WriteString(f.Key + "=" + f.Value.JSON() + ";")
	}
	if strings.Trim(b.String(), ";") == "" {
		return ""
	}
	return b.String()
}

// arms compares two unions arm by arm, arms paired by matchArms: an arm
// inserted or removed is that, wherever it sits, and arms in another
// order are one change, compatible.
func (c *comparer) arms(o, n *ir.Type) {
	oldArms, newArms := armsOf(o), armsOf(n)
	pairs := c.matchArms(oldArms, newArms)
	oldPaired, newPaired := map[*ir.Arm]bool{}, map[*ir.Arm]bool{}
	for _, p := range pairs {
		oldPaired[p.old], newPaired[p.new] = true, true
	}
	for _, oa := range oldArms {
		if !oldPaired[oa] {
			c.add(Change{Category: CatUnions, Kind: ArmRemoved, Breaking: true, Type: n.Name, Member: oa.GoName,
				GoName: oa.GoName, From: armGo(oa, plainName), Schema: oa.Loc.String(),
				Reason: "its field and constructor are gone"})
		}
	}
	for _, na := range newArms {
		if !newPaired[na] {
			c.add(Change{Category: CatUnions, Kind: ArmAdded, Type: n.Name, Member: na.GoName, GoName: na.GoName,
				To: armGo(na, plainName), Schema: na.Loc.String(),
				Reason: "a new field and constructor; switches on Kind() should learn it"})
		}
	}
	var before, after []string
	prev := -1
	reordered := false
	for _, p := range pairs {
		oa, na := p.old, p.new
		base := Change{Category: CatUnions, Type: n.Name, Member: na.GoName, GoName: na.GoName, Schema: na.Loc.String()}
		if i, ok := c.renameAt[ir.NamedOf(oa.Type)]; ok && oa.GoName != na.GoName {
			// The arm is named after its type: one change says both.
			ch := &c.report.Changes[i]
			ch.Reason += fmt.Sprintf(", and so does code using its arm of %s (%s, now %s) and that arm's constructor", n.Name, oa.GoName, na.GoName)
		} else if oa.GoName != na.GoName {
			ch := base
			ch.Kind, ch.Breaking, ch.From, ch.To = ArmRenamed, true, oa.GoName, na.GoName
			ch.Reason = "code using the old field or constructor stops compiling"
			c.add(ch)
		}
		if was, is := armGo(oa, plainName), armGo(na, plainName); was != is {
			ch := base
			ch.Kind, ch.Breaking, ch.From, ch.To = ArmTypeChanged, true, was, is
			ch.Reason = "reads and its constructor stop compiling"
			c.followsRename(&ch, armGo(oa, c.oldName))
			if !ch.FollowsRename { // else the type's rename says it
				c.add(ch)
			}
		}
		i := slices.Index(newArms, na)
		reordered = reordered || i < prev
		prev = i
		before = append(before, oa.GoName)
	}
	if reordered {
		for _, na := range newArms {
			if newPaired[na] {
				after = append(after, na.GoName)
			}
		}
		reason := "no Go code changes"
		if n.Union.Strategy == ir.ByTrial {
			reason = "no Go code changes; the decoder tries the arms in the new order"
		}
		c.add(Change{Category: CatUnions, Kind: ArmsReordered, Type: n.Name, From: strings.Join(before, ", "),
			To: strings.Join(after, ", "), Schema: n.Loc.String(), Reason: reason})
	}
}

// claimLoc records v at loc; a location claimed twice maps to nil, since it
// cannot identify a rename.
func claimLoc[T any](m map[string]*T, loc string, v *T) {
	if _, dup := m[loc]; dup {
		m[loc] = nil
		return
	}
	m[loc] = v
}

func armsOf(t *ir.Type) []*ir.Arm {
	if t.Union == nil {
		return nil
	}
	return t.Union.Arms
}
