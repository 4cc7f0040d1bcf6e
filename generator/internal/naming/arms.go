package naming

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

// positional matches the labels an arm gets when nothing names it.
var positional = regexp.MustCompile(`^Variant[0-9]+$`)

// labelArms replaces positional arm labels (Variant2), and titles that
// only say the union's own name again, by what tells the arm apart from
// its siblings, and renames the arm's own type with it.
func labelArms(types []*ir.Type) {
	for _, u := range types {
		if u.Kind != ir.KindUnion || u.Union == nil {
			continue
		}
		labels := ArmLabels(u.Union)
		for i, a := range u.Union.Arms {
			if labels[i] == "" || !positional.MatchString(a.Label) && !namesUnion(u, a.Label) {
				continue
			}
			old := a.Label
			a.Label = labels[i]
			if t := ir.NamedOf(a.Type); t != nil {
				renameSuffix(t, u, old, labels[i])
			}
		}
	}
}

// namesUnion reports an arm label that is the union's own name (the arm
// titled "PostalArea" of the union titled "Postal Area").
func namesUnion(u *ir.Type, label string) bool {
	if strings.EqualFold(GoName(u.Title), label) {
		return true
	}
	for _, n := range append(append([]string(nil), u.Hints...), u.Suffixes...) {
		if strings.EqualFold(n, label) {
			return true
		}
	}
	return false
}

// renameSuffix swaps the suffix an arm type takes after its union.
func renameSuffix(t, u *ir.Type, old, label string) {
	for _, p := range []struct {
		parent   *ir.Type
		suffixes []string
	}{{t.Parent, t.Suffixes}, {t.AltParent, t.AltSuffixes}} {
		if p.parent != u {
			continue
		}
		for i, s := range p.suffixes {
			if s == old {
				p.suffixes[i] = label
			}
		}
	}
}

// ArmLabels returns, per arm, the label that tells it apart from the other
// arms, or "" when none does. In order: a const value no other arm fixes
// for that key (type: "url" -> "URL"); a required key no other arm
// requires; its set of required keys when no other arm requires the same
// set; its only property when no other arm declares it. Labels two arms
// would share are dropped.
func ArmLabels(u *ir.Union) []string {
	facts := make([]armFacts, len(u.Arms))
	for i, a := range u.Arms {
		facts[i] = factsOf(u, a)
	}
	labels := make([]string, len(u.Arms))
	keys := make([]string, len(u.Arms))
	for i := range labels {
		labels[i], keys[i] = facts[i].label(facts, i)
	}
	otherArm(labels, keys, facts)
	out := make([]string, len(labels))
	for i, l := range labels {
		shared := false
		for j, o := range labels {
			shared = shared || i != j && strings.EqualFold(l, o)
		}
		if !shared {
			out[i] = l
		}
	}
	return out
}

type constFact struct {
	key   string
	value schema.Value
}

// armFacts is what an arm says about its members.
type armFacts struct {
	consts   []constFact
	required []string
	props    []string
}

func factsOf(u *ir.Union, a *ir.Arm) armFacts {
	var f armFacts
	addConst := func(key string, v schema.Value) {
		for _, c := range f.consts {
			if c.key == key {
				return
			}
		}
		f.consts = append(f.consts, constFact{key, v})
	}
	for j, vals := range a.Disc {
		if j < len(u.DiscProps) && len(vals) == 1 {
			addConst(u.DiscProps[j], vals[0])
		}
	}
	for _, c := range a.Fixed {
		addConst(c.Key, c.Value)
	}
	for _, r := range a.Required {
		f.required = appendNew(f.required, r)
	}
	t := ir.NamedOf(a.Type)
	if t != nil && t.Kind == ir.KindStruct {
		for _, fl := range t.Fields {
			if fl.Const != nil && fl.Required {
				addConst(fl.JSONName, *fl.Const)
			}
			if fl.Required {
				f.required = appendNew(f.required, fl.JSONName)
			}
			if !fl.Fixed {
				f.props = append(f.props, fl.JSONName)
			}
		}
	}
	return f
}

// otherArm labels "Other" the one arm nothing else labels when every other
// arm is labelled by a value it fixes and this one fixes none for those
// keys: it takes the values the others do not (country: {not: {enum:
// [US, GB, ...]}} beside one arm per country).
func otherArm(labels, keys []string, facts []armFacts) {
	other := -1
	used := map[string]bool{}
	for i, l := range labels {
		switch {
		case l == "" && other < 0:
			other = i
		case l == "" || keys[i] == "":
			return
		default:
			used[keys[i]] = true
		}
	}
	if other < 0 || len(labels) < 3 {
		return
	}
	for _, c := range facts[other].consts {
		if used[c.key] {
			return
		}
	}
	labels[other] = "Other"
}

// label returns what tells the arm apart and, when that is a const, its key.
func (f armFacts) label(all []armFacts, self int) (string, string) {
	others := func(fn func(o armFacts) bool) bool {
		for j, o := range all {
			if j != self && fn(o) {
				return true
			}
		}
		return false
	}
	for _, c := range f.consts {
		if others(func(o armFacts) bool {
			for _, oc := range o.consts {
				if oc.key == c.key && oc.value.JSON() == c.value.JSON() {
					return true
				}
			}
			return false
		}) {
			continue
		}
		if l := constLabel(c); l != "" {
			return l, c.key
		}
	}
	for _, r := range f.required {
		if !others(func(o armFacts) bool { return has(o.required, r) }) {
			return GoName(r), ""
		}
	}
	if n := len(f.required); n > 0 && n <= 3 && !others(func(o armFacts) bool { return sameSet(o.required, f.required) }) {
		return GoName(strings.Join(f.required, " ")), ""
	}
	if len(f.props) == 1 && !others(func(o armFacts) bool { return has(o.props, f.props[0]) }) {
		return GoName(f.props[0]), ""
	}
	return "", ""
}

// constLabel names an arm after a const it fixes: the value, or for a
// boolean flag the key (context_match: true -> "ContextMatch").
func constLabel(c constFact) string {
	if c.value.Node != nil && c.value.Node.Kind == jsonsrc.Bool {
		if c.value.Node.Bool {
			return GoName(c.key)
		}
		return GoName("not " + c.key)
	}
	return ValueLabel(c.value)
}

// ValueLabel names a const value: strings by their words, booleans True or
// False, numbers N<digits>.
func ValueLabel(v schema.Value) string {
	if v.Node == nil {
		return ""
	}
	switch v.Node.Kind {
	case jsonsrc.String:
		return GoName(v.Node.Str)
	case jsonsrc.Bool:
		if v.Node.Bool {
			return "True"
		}
		return "False"
	case jsonsrc.Number:
		return GoName("n" + v.Node.Str)
	}
	return ""
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func appendNew(list []string, s string) []string {
	if has(list, s) {
		return list
	}
	return append(list, s)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !has(b, x) {
			return false
		}
	}
	return true
}

// nameArms names union arm fields, their constructors, the arm enum type
// and its constants. An arm whose Go type was one arm's alone in the
// union's earlier generation (kept) keeps that arm's label; the others
// are labelled by the policy, and one that would take a kept label takes
// its whole label, then its type's name, before a number.
func nameArms(t *ir.Type, taken map[string]bool, kept []Arm) {
	used := map[string]bool{}
	for _, m := range unionMethods {
		used[m] = true
	}
	labels := keptLabels(t.Union.Arms, kept)
	for _, l := range labels {
		if l != "" {
			used[l] = true
		}
	}
	trimmed := trimLabels(t)
	for i, a := range t.Union.Arms {
		if labels[i] != "" {
			a.GoName = labels[i]
			continue
		}
		label := trimmed[i]
		if used[label] && len(kept) > 0 {
			for _, alt := range []string{GoName(a.Label), typeLabel(a)} {
				if alt != "" && isIdent(alt) && !used[alt] {
					label = alt
					break
				}
			}
		}
		a.GoName = unique(used, label)
	}
	for _, a := range t.Union.Arms {
		a.Constructor = numbered(taken, "New"+t.Name+a.GoName)
	}
	t.Union.KindType = numbered(taken, t.Name+"Kind")
	for _, a := range t.Union.Arms {
		a.KindConst = numbered(taken, t.Union.KindType+a.GoName)
	}
}

// keptLabels returns, per arm, the label kept from the earlier
// generation's arm of the same Go type, when that type is one arm's alone
// on both sides ("" otherwise).
func keptLabels(arms []*ir.Arm, kept []Arm) []string {
	out := make([]string, len(arms))
	if len(kept) == 0 {
		return out
	}
	oldBy := map[string][]string{}
	for _, k := range kept {
		oldBy[k.Type] = append(oldBy[k.Type], k.Label)
	}
	newBy := map[string]int{}
	types := make([]string, len(arms))
	for i, a := range arms {
		types[i] = ir.GoString(a.Type, nil)
		newBy[types[i]]++
	}
	seen := map[string]bool{}
	for i := range arms {
		if old := oldBy[types[i]]; len(old) == 1 && newBy[types[i]] == 1 && isIdent(old[0]) && !seen[old[0]] {
			out[i] = old[0]
			seen[old[0]] = true
		}
	}
	return out
}

// typeLabel is the name of an arm's named type ("" for other arms).
func typeLabel(a *ir.Arm) string {
	if t := ir.NamedOf(a.Type); t != nil {
		return t.Name
	}
	return ""
}

// numbered claims name, or name2, name3, ... when it is taken.
func numbered(taken map[string]bool, name string) string {
	out := name
	for n := 2; taken[out]; n++ {
		out = name + strconv.Itoa(n)
	}
	taken[out] = true
	return out
}

// trimLabels drops from arm labels the words they share with the union's
// name ("CreateMediaBuySuccess" in CreateMediaBuyResponse -> "Success").
func trimLabels(t *ir.Type) []string {
	unionWords := Words(t.Name)
	out := make([]string, len(t.Union.Arms))
	for i, a := range t.Union.Arms {
		label := GoName(a.Label)
		words := Words(label)
		k := 0
		for k < len(words) && k < len(unionWords) && strings.EqualFold(words[k], unionWords[k]) {
			k++
		}
		if k > 0 && k < len(words) {
			label = GoName(strings.Join(words[k:], " "))
		}
		if label == "" || !isIdent(label) {
			label = "V" + label
		}
		out[i] = label
	}
	return out
}
