// Package naming gives every generated identifier its name in one pass over
// the whole IR. Names are API: they must not depend on the order files were
// read in, and they change only when the schemas change. The rules are in
// Policy, which every generated package's doc repeats.
package naming

import (
	"sort"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// Policy is the written naming and collision policy.
const Policy = `1. Types defined by a document root, a definition or another referenced
   node try, in order: the schema's title (when it reads as a name), the
   file or definition name, the folder plus file name, the full path.
2. When several types want one name, the one with the best rank keeps it
   (document roots, then definitions, then inline types); if several share
   the best rank, all of them move on to their next candidate.
3. Inline types are named after their parent: parent name + property name
   (array elements take the singular, or "Item"; map values "Value"; union
   arms their label). Their title wins when unique.
4. A type out of candidates takes its last candidate plus a number, numbered
   in the order of the schema locations (file#/pointer).
5. Enum constants (<Enum><Value>) and helpers derived from a type
   (Known<Enum>Values, New<Union><Arm>, the arm enum <Union>Kind and its
   constants <Union>Kind<Arm>) come after types; a clash appends "Value"
   (constants) or a number.
6. Fields, arms and enum values are named per scope with Go initialisms
   (ID, URL, API, CPM, ...); a clash within a scope keeps the name for the
   first in JSON-name order and numbers the rest. Union arm labels drop the
   words they share with the union's name.`

// Reserved package-level identifiers the emitter defines itself.
var Reserved = []string{"Decode", "DecodeExact", "NewBySchema", "SchemaRefs", "NewErrorDetails", "ErrorDetails",
	"ErrorDetailsCodes", "ToolTable", "ToolByName", "ErrorCodeTable", "RecoveryForCode", "SpecVersion",
	"DefaultUnknownRecovery"}

// Member names the emitter gives methods, per kind.
var (
	structMethods = []string{"DecodeWire", "EncodeWire", "MarshalJSON", "UnmarshalJSON"}
	unionMethods  = []string{"DecodeWire", "EncodeWire", "MarshalJSON", "UnmarshalJSON", "Variant", "Kind", "IsZero"}
)

// Assign names every type, constant, field and arm of pkg.
func Assign(pkg *ir.Package) {
	taken := map[string]bool{}
	for _, r := range Reserved {
		taken[r] = true
	}
	nameTypes(pkg.Types, taken)
	sorted := append([]*ir.Type(nil), pkg.Types...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, t := range sorted {
		switch t.Kind {
		case ir.KindEnum:
			nameEnumValues(t, taken)
		case ir.KindStruct:
			nameFields(t)
		case ir.KindUnion:
			nameArms(t, taken)
		}
	}
}

// nameTypes resolves type names generation by generation: types with no
// parent first, then types named after them, and so on.
func nameTypes(types []*ir.Type, taken map[string]bool) {
	// A type is named after its parents (Parent, then AltParent), so it
	// comes in a later generation than both. A parent link that would close
	// a cycle is dropped.
	depth := map[*ir.Type]int{}
	visiting := map[*ir.Type]bool{}
	var depthOf func(t *ir.Type) int
	depthOf = func(t *ir.Type) int {
		if d, ok := depth[t]; ok {
			return d
		}
		visiting[t] = true
		d := 0
		for _, p := range []**ir.Type{&t.Parent, &t.AltParent} {
			if *p == nil {
				continue
			}
			if visiting[*p] {
				*p = nil
				continue
			}
			if pd := depthOf(*p) + 1; pd > d {
				d = pd
			}
		}
		delete(visiting, t)
		depth[t] = d
		return d
	}
	maxDepth := 0
	for _, t := range types {
		if d := depthOf(t); d > maxDepth {
			maxDepth = d
		}
	}
	for gen := 0; gen <= maxDepth; gen++ {
		var batch []*ir.Type
		for _, t := range types {
			if depth[t] == gen {
				batch = append(batch, t)
			}
		}
		resolve(batch, taken)
	}
}

// candidates lists a type's names, best first.
func candidates(t *ir.Type) []string {
	var out []string
	add := func(s string) {
		if s == "" || !isIdent(s) {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, h := range t.Hints {
		add(h)
	}
	for _, p := range []struct {
		parent   *ir.Type
		suffixes []string
	}{{t.Parent, t.Suffixes}, {t.AltParent, t.AltSuffixes}} {
		if p.parent == nil {
			continue
		}
		for _, s := range p.suffixes {
			add(p.parent.Name + s)
		}
		if len(p.suffixes) == 0 {
			add(p.parent.Name + "Value")
		}
	}
	if len(out) == 0 {
		add("Type")
	}
	return out
}

func isIdent(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// resolve names a batch against names already taken, per the policy.
func resolve(batch []*ir.Type, taken map[string]bool) {
	sort.SliceStable(batch, func(i, j int) bool { return batch[i].Loc.String() < batch[j].Loc.String() })
	cands := make([][]string, len(batch))
	level := make([]int, len(batch))
	for i, t := range batch {
		cands[i] = candidates(t)
	}
	for {
		groups := map[string][]int{}
		for i := range batch {
			if level[i] < len(cands[i]) {
				groups[cands[i][level[i]]] = append(groups[cands[i][level[i]]], i)
			}
		}
		changed := false
		for name, members := range groups {
			if taken[name] {
				for _, i := range members {
					level[i]++
				}
				changed = true
				continue
			}
			if len(members) == 1 {
				continue
			}
			best := batch[members[0]].Rank
			for _, i := range members {
				if batch[i].Rank < best {
					best = batch[i].Rank
				}
			}
			var winners []int
			for _, i := range members {
				if batch[i].Rank == best {
					winners = append(winners, i)
				}
			}
			for _, i := range members {
				if len(winners) == 1 && i == winners[0] {
					continue
				}
				level[i]++
			}
			changed = true
		}
		if !changed {
			break
		}
	}
	// Settle: types still holding a candidate take it; the rest number their
	// last candidate in location order.
	for i, t := range batch {
		if level[i] < len(cands[i]) {
			t.Name = cands[i][level[i]]
			taken[t.Name] = true
		}
	}
	for i, t := range batch {
		if t.Name != "" {
			continue
		}
		base := cands[i][len(cands[i])-1]
		for n := 2; ; n++ {
			name := base + strconv.Itoa(n)
			if !taken[name] {
				t.Name = name
				taken[name] = true
				break
			}
		}
	}
}

// nameEnumValues names constants <Type><Value> and the Known<Type>Values func.
func nameEnumValues(t *ir.Type, taken map[string]bool) {
	for i, v := range t.Values {
		word := GoName(v.Value.Node.Str)
		if word == "" {
			word = "Value" + strconv.Itoa(i+1)
		}
		name := t.Name + word
		if taken[name] {
			name += "Value"
		}
		for n := 2; taken[name]; n++ {
			name = t.Name + word + strconv.Itoa(n)
		}
		v.GoName = name
		taken[name] = true
	}
	claim(taken, KnownValuesFunc(t))
}

// KnownValuesFunc is the name of an enum's list-of-values function.
func KnownValuesFunc(t *ir.Type) string { return "Known" + t.Name + "Values" }

// ArmConstructor is the name of a union arm's constructor.
func ArmConstructor(t *ir.Type, a *ir.Arm) string { return "New" + t.Name + a.GoName }

func claim(taken map[string]bool, name string) {
	taken[name] = true
}

// nameFields names struct fields in their scope; the extra-members field
// takes "AdditionalProperties" unless a property has that name.
func nameFields(t *ir.Type) {
	used := map[string]bool{}
	for _, m := range structMethods {
		used[m] = true
	}
	order := append([]*ir.Field(nil), t.Fields...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].JSONName < order[j].JSONName })
	for _, f := range order {
		name := GoName(f.JSONName)
		if name == "" || !isIdent(name) {
			name = "F" + name
		}
		f.GoName = unique(used, name)
	}
	for i, p := range t.Patterns {
		name := "Matching"
		if len(t.Patterns) > 1 {
			name += strconv.Itoa(i + 1)
		}
		p.GoName = unique(used, name)
	}
	if t.Extra.Mode == ir.ExtraKeep || t.Extra.Mode == ir.ExtraTyped {
		for _, n := range []string{"AdditionalProperties", "Extra", "UnknownMembers"} {
			if !used[n] {
				t.Extra.GoName = n
				used[n] = true
				break
			}
		}
		if t.Extra.GoName == "" {
			t.Extra.GoName = unique(used, "AdditionalProperties")
		}
	}
}

// nameArms names union arm fields, their constructors, the arm enum type
// and its constants.
func nameArms(t *ir.Type, taken map[string]bool) {
	used := map[string]bool{}
	for _, m := range unionMethods {
		used[m] = true
	}
	trimmed := trimLabels(t)
	for i, a := range t.Union.Arms {
		a.GoName = unique(used, trimmed[i])
		name := ArmConstructor(t, a)
		for n := 2; taken[name]; n++ {
			name = ArmConstructor(t, a) + strconv.Itoa(n)
		}
		claim(taken, name)
	}
	t.Union.KindType = numbered(taken, t.Name+"Kind")
	for _, a := range t.Union.Arms {
		a.KindConst = numbered(taken, t.Union.KindType+a.GoName)
	}
}

// numbered claims name, or name2, name3, ... when it is taken.
func numbered(taken map[string]bool, name string) string {
	out := name
	for n := 2; taken[out]; n++ {
		out = name + strconv.Itoa(n)
	}
	claim(taken, out)
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

func unique(used map[string]bool, name string) string {
	out := name
	for n := 2; used[out]; n++ {
		out = name + strconv.Itoa(n)
	}
	used[out] = true
	return out
}
