// Package naming gives every generated identifier its name in one pass over
// the whole IR. Names are API: they must not depend on the order files were
// read in, and they change only when the schemas change. The rules are in
// Policy, which every generated package's doc repeats.
package naming

import (
	"maps"
	"sort"
	"strconv"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// Policy is the written naming and collision policy.
const Policy = `1. A type keeps its name across upgrades. Regenerated into the directory
   holding the package generated before (as go generate does), every
   type of a schema that package has (its "Schema:" line: its place, or
   its digest, which leaves out descriptions, titles and examples, so a
   schema found elsewhere or only documented anew) keeps the name it has
   there, and no new type takes one of its names; a union keeps the label
   of each arm whose Go type is still one arm's alone; the rules below
   name the rest. A fresh directory gets the rules' names alone: the same
   tree gives the same names on every machine (a checkout that commits
   the package regenerates to the same files; adcpgen generate
   --fresh-names ignores the package in the directory).
2. Types defined by a document root, a definition or another referenced
   node try, in order: the schema's title (when it reads as a name), the
   file or definition name, the folder plus file name, the full path. A
   definition's name or title of one word is joined to its file's name
   first (brand.json#/definitions/logo is BrandLogo): one word means
   little out of its context.
3. When several types want one name, the one with the best rank keeps it
   (document roots, then definitions, then inline types); among equal
   ranks the one whose schema location (file#/pointer) sorts first keeps
   it. The others move on to their next candidate, then to their first
   one after their folder's name (CorePaymentCardRefund), then to it with
   the first word of their description it does not say before their own
   segment (brand.json's Brand.contact, "Brand-level contact
   information", is BrandLevelContact beside the definition BrandContact);
   a number only when none is left.
4. Inline types are named after the type of their nearest enclosing schema
   in their own file: its name + property name (array items take the
   singular, then the array's name + "Item"; map values "Value"; union
   arms their label). Where a schema merges another file's union into
   itself (allOf), its copies of the arms are its own: named after its
   file, their Schema line says "merged into" it. Words the suffix repeats
   from the end of the parent's name are said once (AudioDAAST +
   DAASTVersion = AudioDAASTVersion), so are two or more words it opens
   with that the parent's name opens with (CreateMediaBuyResponse's arm
   CreateMediaBuySubmitted is CreateMediaBuyResponseSubmitted), and a
   suffix that only repeats them
   takes a word for what the type is instead (Value for a member, Item for
   an array item, Entry for a map value). An inline type's title of two
   words or more wins when unique.
5. Long names are shortened: from 40 characters a name keeps only its
   anchor (the nearest type named on its own), its parent's segment and its
   own; from 50 characters the anchor and its own, says once in its own
   segment a word the anchor already says, and drops a task payload's last
   word (GetAdCPCapabilities for GetAdCPCapabilitiesResponse, wherever it
   stands in the name). Of these, the forms under 50 characters come first;
   the longer forms are the fallbacks when a short one is taken.
6. Union arms are labelled by their title or the referenced schema, unless
   that only repeats the union's name, else by what tells them apart: a
   const value no other arm fixes (a boolean flag by its key), "Other" for
   the one arm that fixes none of the values the others fix (country:
   {not: {enum: [...]}}), a required key or set of required keys no other
   arm requires, or their only property. Only arms nothing tells apart are
   numbered (Variant1, Variant2).
7. Enum constants (<Enum><Value>) and helpers derived from a type
   (Known<Enum>Values, New<Union><Arm>, the arm enum <Union>Kind and its
   constants <Union>Kind<Arm>) come after types; a clash appends "Value"
   (constants) or a number.
8. Fields, arms and enum values are named per scope with Go initialisms
   (ID, URL, API, CPM, ...) and the spec's own (DAAST, VAST, ID5, UID2,
   HDR10, AI, ...); a clash within a scope keeps the name for the first in
   JSON-name order and numbers the rest. Union arm labels drop the words
   they share with the union's name.
9. Each tool gets a descriptor, the field <Tool> of the package's Tools
   value (its wire name in Go spelling: get_products is GetProducts), and
   an alias of its task.Result, <Tool>Result; when a type already has that
   name the alias is <Tool>TaskResult (then a number).`

// Reserved package-level identifiers the emitter defines itself.
var Reserved = []string{"Decode", "DecodeExact", "NewBySchema", "SchemaRefs", "NewErrorDetails", "ErrorDetails",
	"ErrorDetailsCodes", "ToolTable", "ToolByName", "ErrorCodeTable", "RecoveryForCode", "SpecVersion",
	"DefaultUnknownRecovery", "Spec", "Tools", "ToolSet"}

// Member names the emitter gives methods, per kind.
var (
	structMethods = []string{"WireDesc", "MarshalJSON", "UnmarshalJSON"}
	unionMethods  = []string{"WireDesc", "MarshalJSON", "UnmarshalJSON", "Variant", "Kind", "IsZero"}
)

// Keep is what an earlier generation of the package declared, which the
// naming pass keeps: Types maps a type's schema (ir.Type.Key) to the name
// it had, Digests to its schema's digest (ir.Type.Digest, when recorded);
// Helpers are its other package-level names (constants, functions, union
// kinds, tool aliases), which no new type may take. The zero value names
// by the policy alone.
type Keep struct {
	Types   map[string]string
	Digests map[string]string
	// TextDigests map a type's schema to the digest of its whole text
	// (ir.Type.TextDigest), where recorded apart; an adcpgen before it
	// recorded that one as the digest.
	TextDigests map[string]string
	Helpers     map[string]bool
	// Arms are the arms of each union (by schema key), in order: a union
	// that keeps its name, or has the name of one of these, keeps the label
	// of every arm whose Go type is still one of its arms' alone.
	Arms map[string][]Arm
}

// Arm is a union arm an earlier generation declared: its label (the
// union's field) and its Go type as generated code spells it, without
// the pointer ("CreateMediaBuySuccess", "[]string", "wire.Nullable[int64]").
type Arm struct {
	Label, Type string
}

// Assign names every type, constant, field and arm of pkg. Types keep[n]
// names first; the policy names the rest among the names left.
func Assign(pkg *ir.Package, keep Keep) {
	taken := map[string]bool{}
	for _, r := range Reserved {
		taken[r] = true
	}
	labelArms(pkg.Types)
	typeTaken := maps.Clone(taken)
	for n := range keep.Helpers {
		typeTaken[n] = true
	}
	keptFrom := nameTypes(pkg.Types, typeTaken, keep)
	// A union's arms are API under its name: a union with the name of an
	// earlier one keeps that one's labels, whatever schema it stands for.
	keyOf := map[string]string{}
	for key, name := range keep.Types {
		keyOf[name] = key
	}
	for _, t := range pkg.Types {
		taken[t.Name] = true
	}
	sorted := append([]*ir.Type(nil), pkg.Types...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, t := range sorted {
		switch t.Kind {
		case ir.KindEnum:
			nameEnumValues(t, taken)
		case ir.KindStruct:
			nameFields(t)
		case ir.KindUnion:
			key, ok := keptFrom[t]
			if !ok {
				key = keyOf[t.Name]
			}
			nameArms(t, taken, keep.Arms[key])
		}
	}
	if pkg.Registry != nil {
		nameTools(pkg.Registry.Tools, taken)
	}
}

// nameTools names each tool's descriptor field and Result alias, after
// every type has its name: types keep theirs, the alias moves on.
func nameTools(tools []*ir.Tool, taken map[string]bool) {
	fields := map[string]bool{}
	sorted := append([]*ir.Tool(nil), tools...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, t := range sorted {
		name := GoName(t.Name)
		if name == "" || !isIdent(name) {
			name = "Tool" + name
		}
		t.GoName = unique(fields, name)
		result := t.GoName + "Result"
		if taken[result] {
			result = t.GoName + "TaskResult"
		}
		for n := 2; taken[result]; n++ {
			result = t.GoName + "TaskResult" + strconv.Itoa(n)
		}
		t.ResultName = result
		taken[result] = true
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
	t.KnownValues = numbered(taken, "Known"+t.Name+"Values")
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

func unique(used map[string]bool, name string) string {
	out := name
	for n := 2; used[out]; n++ {
		out = name + strconv.Itoa(n)
	}
	used[out] = true
	return out
}
