package apidiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// Small IR builders: each call makes fresh values, so the two sides of a
// comparison never share pointers, as with two real builds.

func loc(file string) schema.Loc { return schema.Loc{File: file, Pointer: ""} }

func jsonValue(t testing.TB, lit string) schema.Value {
	t.Helper()
	n, err := jsonsrc.Parse([]byte(lit))
	if err != nil {
		t.Fatalf("parse %s: %v", lit, err)
	}
	return schema.Value{Node: n}
}

func str() *ir.Ref { return ir.BuiltinRef(ir.String) }

func structType(name, file string, fields ...*ir.Field) *ir.Type {
	return &ir.Type{Kind: ir.KindStruct, Name: name, Loc: loc(file), Fields: fields,
		Extra: ir.Extra{Mode: ir.ExtraKeep, GoName: "AdditionalProperties"}}
}

func field(json, goName string, typ *ir.Ref, required bool) *ir.Field {
	return &ir.Field{JSONName: json, GoName: goName, Type: typ, Required: required}
}

func enumType(t testing.TB, name, file string, values ...string) *ir.Type {
	e := &ir.Type{Kind: ir.KindEnum, Name: name, Loc: loc(file), EnumBase: ir.String}
	for _, v := range values {
		goName, value, _ := strings.Cut(v, "=")
		e.Values = append(e.Values, &ir.EnumValue{GoName: goName, Value: jsonValue(t, `"`+value+`"`)})
	}
	return e
}

func unionType(name, file string, arms ...*ir.Arm) *ir.Type {
	return &ir.Type{Kind: ir.KindUnion, Name: name, Loc: loc(file), Union: &ir.Union{Strategy: ir.ByTrial, Arms: arms}}
}

func arm(goName, file string, typ *ir.Ref) *ir.Arm {
	return &ir.Arm{GoName: goName, Label: goName, Type: typ, Loc: loc(file)}
}

// digested sets a type's schema digest.
func digested(t *ir.Type, d string) *ir.Type {
	t.Digest = d
	return t
}

// discArm is an arm picked by kind = value.
func discArm(t testing.TB, goName, value string, typ *ir.Ref) *ir.Arm {
	a := arm(goName, "u.json", typ)
	a.Label = ""
	a.Disc = [][]schema.Value{{jsonValue(t, `"`+value+`"`)}}
	return a
}

func pkg(types ...*ir.Type) *ir.Package {
	return &ir.Package{Types: types, Registry: &ir.Registry{}}
}

// want is the part of a Change a case checks; empty strings are not checked
// except Kind.
type want struct {
	kind     Kind
	breaking bool
	typ      string
	member   string
	from, to string
	renamed  bool // FollowsRename
}

func (w want) matches(c Change) bool {
	return c.Kind == w.kind && c.Breaking == w.breaking &&
		(w.typ == "" || c.Type == w.typ) && (w.member == "" || c.Member == w.member) &&
		(w.from == "" || c.From == w.from) && (w.to == "" || c.To == w.to) && c.FollowsRename == w.renamed
}

func (w want) String() string {
	return fmt.Sprintf("%s breaking=%v type=%q member=%q from=%q to=%q follows_rename=%v",
		w.kind, w.breaking, w.typ, w.member, w.from, w.to, w.renamed)
}

func dump(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "\n  %s breaking=%v type=%q member=%q from=%q to=%q follows_rename=%v (%s)",
			c.Kind, c.Breaking, c.Type, c.Member, c.From, c.To, c.FollowsRename, c.Reason)
	}
	return b.String()
}

// checkChanges fails unless changes are exactly wants (in any order).
func checkChanges(t *testing.T, changes []Change, wants []want) {
	t.Helper()
	used := make([]bool, len(changes))
	for _, w := range wants {
		found := false
		for i, c := range changes {
			if !used[i] && w.matches(c) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing change %s; got:%s", w, dump(changes))
		}
	}
	for i, c := range changes {
		if !used[i] {
			t.Errorf("unexpected change:%s", dump([]Change{c}))
		}
		if c.Reason == "" {
			t.Errorf("change without a reason:%s", dump([]Change{c}))
		}
	}
}

func TestCompareTypesAndFields(t *testing.T) {
	cases := []struct {
		name     string
		old, new func() *ir.Package
		want     []want
	}{
		{
			name: "identical",
			old:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), true))) },
			new:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), true))) },
		},
		{
			name: "type removed and added elsewhere",
			old:  func() *ir.Package { return pkg(structType("A", "a.json")) },
			new:  func() *ir.Package { return pkg(structType("B", "b.json")) },
			want: []want{
				{kind: TypeRemoved, breaking: true, typ: "A", from: "struct"},
				{kind: TypeAdded, typ: "B", to: "struct"},
			},
		},
		{
			name: "renamed at the same location; a field following it",
			old: func() *ir.Package {
				a := structType("A", "a.json")
				return pkg(a, structType("User", "u.json", field("a", "A", ir.NamedRef(a), false)))
			},
			new: func() *ir.Package {
				b := structType("B", "a.json")
				return pkg(b, structType("User", "u.json", field("a", "A", ir.NamedRef(b), false)))
			},
			want: []want{
				{kind: TypeRenamed, breaking: true, typ: "B", from: "A", to: "B"},
				{kind: FieldTypeChanged, breaking: true, typ: "User", member: "a", from: "*A", to: "*B", renamed: true},
			},
		},
		{
			// Types pair by name first: code naming Domain compiles, and
			// the name is said to stand for another schema now.
			name: "another schema takes the name",
			old:  func() *ir.Package { return pkg(digested(structType("Domain", "brand.json"), "d1")) },
			new: func() *ir.Package {
				return pkg(digested(structType("BrandDomain", "brand.json"), "d1"), digested(structType("Domain", "registry.json"), "d2"))
			},
			want: []want{
				{kind: TypeSchemaChanged, typ: "Domain", from: "brand.json#", to: "registry.json#"},
				{kind: TypeAdded, typ: "BrandDomain", to: "struct"},
			},
		},
		{
			name: "the same schema text under another name and place is a rename",
			old:  func() *ir.Package { return pkg(digested(structType("Old", "a.json#/definitions/x"), "d1")) },
			new:  func() *ir.Package { return pkg(digested(structType("New", "b.json#/definitions/x"), "d1")) },
			want: []want{{kind: TypeRenamed, breaking: true, typ: "New", from: "Old", to: "New"}},
		},
		{
			name: "a schema that moved keeps its name",
			old:  func() *ir.Package { return pkg(structType("A", "old/a.json")) },
			new:  func() *ir.Package { return pkg(structType("A", "new/a.json")) },
		},
		{
			name: "two new types at one location are no rename",
			old:  func() *ir.Package { return pkg(structType("A", "a.json")) },
			new:  func() *ir.Package { return pkg(structType("B", "a.json"), structType("C", "a.json")) },
			want: []want{
				{kind: TypeRemoved, breaking: true, typ: "A"},
				{kind: TypeAdded, typ: "B"},
				{kind: TypeAdded, typ: "C"},
			},
		},
		{
			name: "kind changed",
			old:  func() *ir.Package { return pkg(structType("A", "a.json")) },
			new:  func() *ir.Package { return pkg(unionType("A", "a.json")) },
			want: []want{{kind: TypeKindChanged, breaking: true, typ: "A", from: "struct", to: "union"}},
		},
		{
			name: "underlying type changed",
			old: func() *ir.Package {
				return pkg(&ir.Type{Kind: ir.KindScalar, Name: "ID", Underlying: str()})
			},
			new: func() *ir.Package {
				return pkg(&ir.Type{Kind: ir.KindScalar, Name: "ID", Underlying: ir.BuiltinRef(ir.Int)})
			},
			want: []want{{kind: TypeUnderlyingChanged, breaking: true, typ: "ID", from: "string", to: "int64"}},
		},
		{
			name: "type deprecated",
			old:  func() *ir.Package { return pkg(structType("A", "a.json")) },
			new: func() *ir.Package {
				a := structType("A", "a.json")
				a.Deprecated = true
				return pkg(a)
			},
			want: []want{{kind: TypeDeprecated, typ: "A"}},
		},
		{
			name: "field removed, optional and required fields added",
			old:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), false))) },
			new: func() *ir.Package {
				return pkg(structType("A", "a.json", field("y", "Y", str(), false), field("z", "Z", ir.SliceOf(str()), true)))
			},
			want: []want{
				{kind: FieldRemoved, breaking: true, typ: "A", member: "x", from: "*string"},
				{kind: FieldAdded, typ: "A", member: "y", to: "*string"},
				{kind: FieldAdded, breaking: true, typ: "A", member: "z", to: "[]string"},
			},
		},
		{
			name: "became required: a pointer becomes a value",
			old:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), false))) },
			new:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), true))) },
			want: []want{{kind: FieldRequired, breaking: true, member: "x", from: "*string", to: "string"}},
		},
		{
			name: "became optional without a Go change is compatible",
			old:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", ir.SliceOf(str()), true))) },
			new:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", ir.SliceOf(str()), false))) },
			want: []want{{kind: FieldOptional, member: "x", from: "[]string", to: "[]string"}},
		},
		{
			name: "became optional with T to *T breaks",
			old:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), true))) },
			new:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), false))) },
			want: []want{{kind: FieldOptional, breaking: true, member: "x", from: "string", to: "*string"}},
		},
		{
			name: "field type changed, Go name changed, deprecated",
			old:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), true))) },
			new: func() *ir.Package {
				f := field("x", "XValue", ir.NullableOf(ir.BuiltinRef(ir.Int)), true)
				f.Deprecated = true
				return pkg(structType("A", "a.json", f))
			},
			want: []want{
				{kind: FieldRenamed, breaking: true, member: "x", from: "X", to: "XValue"},
				{kind: FieldTypeChanged, breaking: true, member: "x", from: "string", to: "wire.Nullable[int64]"},
				{kind: FieldDeprecated, member: "x"},
			},
		},
		{
			name: "fixed members",
			old: func() *ir.Package {
				fixed := field("type", "Type", str(), true)
				fixed.Fixed, fixed.Const = true, ptrValue(t, `"a"`)
				return pkg(structType("A", "a.json", fixed, field("kind", "Kind", str(), true)))
			},
			new: func() *ir.Package {
				fixed := field("kind", "Kind", str(), true)
				fixed.Fixed, fixed.Const = true, ptrValue(t, `"k"`)
				added := field("v", "V", str(), true)
				added.Fixed, added.Const = true, ptrValue(t, `1`)
				return pkg(structType("A", "a.json", field("type", "Type", str(), true), fixed, added))
			},
			want: []want{
				{kind: FieldTypeChanged, breaking: true, member: "type", from: `fixed "a"`, to: "string"},
				{kind: FieldTypeChanged, breaking: true, member: "kind", from: "string", to: `fixed "k"`},
				{kind: FieldAdded, breaking: true, member: "v", to: "fixed 1"},
			},
		},
		{
			name: "optional field became required and fixed",
			old:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), false))) },
			new: func() *ir.Package {
				f := field("x", "X", str(), true)
				f.Fixed, f.Const = true, ptrValue(t, `"only"`)
				return pkg(structType("A", "a.json", f))
			},
			want: []want{{kind: FieldRequired, breaking: true, member: "x", from: "*string", to: `fixed "only"`}},
		},
		{
			name: "optional const field",
			old:  func() *ir.Package { return pkg(structType("A", "a.json", field("x", "X", str(), false))) },
			new: func() *ir.Package {
				f := field("x", "X", str(), false)
				f.Const = ptrValue(t, `"only"`)
				return pkg(structType("A", "a.json", f))
			},
			want: []want{{kind: FieldTypeChanged, breaking: true, member: "x", from: "*string", to: `*string (always "only")`}},
		},
		{
			name: "extra members: kept to rejected",
			old:  func() *ir.Package { return pkg(structType("A", "a.json")) },
			new: func() *ir.Package {
				a := structType("A", "a.json")
				a.Extra = ir.Extra{Mode: ir.ExtraReject}
				return pkg(a)
			},
			want: []want{{kind: ExtraRejected, breaking: true, member: extraMember, from: "map[string]json.RawMessage"}},
		},
		{
			name: "extra members: rejected to kept",
			old: func() *ir.Package {
				a := structType("A", "a.json")
				a.Extra = ir.Extra{Mode: ir.ExtraReject}
				return pkg(a)
			},
			new:  func() *ir.Package { return pkg(structType("A", "a.json")) },
			want: []want{{kind: ExtraKept, member: extraMember, to: "map[string]json.RawMessage"}},
		},
		{
			name: "extra members: typed",
			old:  func() *ir.Package { return pkg(structType("A", "a.json")) },
			new: func() *ir.Package {
				a := structType("A", "a.json")
				a.Extra = ir.Extra{Mode: ir.ExtraTyped, Type: str(), GoName: "AdditionalProperties"}
				return pkg(a)
			},
			want: []want{{kind: ExtraTypeChanged, breaking: true, member: extraMember,
				from: "AdditionalProperties map[string]json.RawMessage", to: "AdditionalProperties map[string]string"}},
		},
		{
			name: "pattern members added, retyped and removed",
			old: func() *ir.Package {
				a := structType("A", "a.json")
				a.Patterns = []*ir.PatternField{{Pattern: "^x_", Type: str(), GoName: "Matching1"}, {Pattern: "^y_", Type: str(), GoName: "Matching2"}}
				return pkg(a)
			},
			new: func() *ir.Package {
				a := structType("A", "a.json")
				a.Patterns = []*ir.PatternField{{Pattern: "^x_", Type: ir.BuiltinRef(ir.Int), GoName: "Matching1"}, {Pattern: "^z_", Type: str(), GoName: "Matching2"}}
				return pkg(a)
			},
			want: []want{
				{kind: FieldRemoved, breaking: true, member: "patternProperties ^y_", from: "map[string]string"},
				{kind: FieldTypeChanged, breaking: true, member: "patternProperties ^x_", from: "Matching1 map[string]string", to: "Matching1 map[string]int64"},
				{kind: FieldAdded, member: "patternProperties ^z_", to: "map[string]string"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Compare(tc.old(), tc.new(), Side{}, Side{})
			checkChanges(t, r.Changes, tc.want)
		})
	}
}

func ptrValue(t testing.TB, lit string) *schema.Value {
	v := jsonValue(t, lit)
	return &v
}

func TestCompareEnumsAndUnions(t *testing.T) {
	cases := []struct {
		name     string
		old, new func() *ir.Package
		want     []want
	}{
		{
			name: "enum values added, removed, renamed, deprecated",
			old: func() *ir.Package {
				return pkg(enumType(t, "Color", "c.json", "ColorRed=red", "ColorGreen=green", "ColorGray=gray", "ColorBlack=black"))
			},
			new: func() *ir.Package {
				e := enumType(t, "Color", "c.json", "ColorRed=red", "ColorGrey=gray", "ColorBlue=blue", "ColorBlack=black")
				e.Values[3].Deprecated = true
				return pkg(e)
			},
			want: []want{
				{kind: EnumValueRemoved, breaking: true, typ: "Color", member: `"green"`},
				{kind: EnumValueAdded, typ: "Color", member: `"blue"`},
				{kind: EnumConstRenamed, breaking: true, member: `"gray"`, from: "ColorGray", to: "ColorGrey"},
				{kind: EnumValueDeprecated, member: `"black"`},
			},
		},
		{
			name: "enum renamed with its constants",
			old:  func() *ir.Package { return pkg(enumType(t, "Colour", "c.json", "ColourRed=red")) },
			new:  func() *ir.Package { return pkg(enumType(t, "Color", "c.json", "ColorRed=red")) },
			want: []want{
				{kind: TypeRenamed, breaking: true, from: "Colour", to: "Color"},
				{kind: EnumConstRenamed, breaking: true, from: "ColourRed", to: "ColorRed", renamed: true},
			},
		},
		{
			name: "enum base changed",
			old:  func() *ir.Package { return pkg(enumType(t, "Level", "l.json")) },
			new: func() *ir.Package {
				e := enumType(t, "Level", "l.json")
				e.EnumBase = ir.Int
				return pkg(e)
			},
			want: []want{{kind: TypeUnderlyingChanged, breaking: true, from: "string", to: "int64"}},
		},
		{
			name: "union arms added, removed, retyped",
			old: func() *ir.Package {
				return pkg(unionType("U", "u.json", arm("Text", "u.json#/oneOf/0", str()), arm("List", "u.json#/oneOf/1", ir.SliceOf(str()))))
			},
			new: func() *ir.Package {
				return pkg(unionType("U", "u.json", arm("Text", "u.json#/oneOf/0", ir.BuiltinRef(ir.Raw)), arm("Num", "u.json#/oneOf/2", ir.BuiltinRef(ir.Float))))
			},
			want: []want{
				{kind: ArmRemoved, breaking: true, typ: "U", member: "List", from: "[]string"},
				{kind: ArmAdded, typ: "U", member: "Num", to: "*float64"},
				{kind: ArmTypeChanged, breaking: true, member: "Text", from: "*string", to: "json.RawMessage"},
			},
		},
		{
			name: "union arm renamed: the same discriminator value",
			old:  func() *ir.Package { return pkg(unionType("U", "u.json", discArm(t, "Text", "text", str()))) },
			new:  func() *ir.Package { return pkg(unionType("U", "u.json", discArm(t, "Label", "text", str()))) },
			want: []want{{kind: ArmRenamed, breaking: true, member: "Label", from: "Text", to: "Label"}},
		},
		{
			name: "an arm whose name and identity both changed is another arm",
			old:  func() *ir.Package { return pkg(unionType("U", "u.json", arm("Text", "u.json#/oneOf/0", str()))) },
			new:  func() *ir.Package { return pkg(unionType("U", "u.json", arm("Label", "u.json#/oneOf/0", str()))) },
			want: []want{
				{kind: ArmRemoved, breaking: true, member: "Text"},
				{kind: ArmAdded, member: "Label"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Compare(tc.old(), tc.new(), Side{}, Side{})
			checkChanges(t, r.Changes, tc.want)
		})
	}
}

func TestCompareRegistry(t *testing.T) {
	build := func(newer bool) *ir.Package {
		req, resp := structType("GetReq", "get-req.json"), structType("GetResp", "get-resp.json")
		other := structType("OtherResp", "other.json")
		working := structType("GetWorking", "get-working.json")
		details := structType("RateDetails", "rate.json")
		p := pkg(req, resp, other, working, details)
		r := p.Registry
		if !newer {
			r.Tools = []*ir.Tool{
				{Name: "get", Request: req, Response: resp, Async: []*ir.AsyncResponse{{Status: "working", Type: working}}},
				{Name: "old", Request: req, Response: other},
			}
			r.Codes = registry.ErrorCodes{{Code: "RATE_LIMITED", Recovery: "transient"}, {Code: "GONE", Recovery: "terminal"},
				{Code: "AUTH_REQUIRED", Recovery: "correctable"}}
			r.Details = []*ir.DetailsEntry{{Code: "RATE_LIMITED", Type: details}, {Code: "GONE", Type: details}}
			return p
		}
		r.Tools = []*ir.Tool{
			{Name: "get", Request: req, Response: other, Deprecated: true, Async: []*ir.AsyncResponse{{Status: "submitted", Type: working}}},
			{Name: "new", Request: req, Response: resp},
		}
		r.Codes = registry.ErrorCodes{{Code: "RATE_LIMITED", Recovery: "correctable"}, {Code: "AUTH_MISSING", Recovery: "correctable"},
			{Code: "AUTH_REQUIRED", Recovery: "correctable", Deprecated: true}}
		r.UnknownRecovery = registry.Transient
		r.Details = []*ir.DetailsEntry{{Code: "RATE_LIMITED", Type: other}, {Code: "AUTH_MISSING", Type: details},
			{Code: "RATE_LIMITED", Type: details, Alternate: true}}
		return p
	}
	r := Compare(build(false), build(true), Side{}, Side{})
	checkChanges(t, r.Changes, []want{
		{kind: ToolRemoved, breaking: true, member: "old"},
		{kind: ToolAdded, member: "new", to: "GetReq → GetResp"},
		{kind: ToolDeprecated, member: "get"},
		{kind: ToolResponseChanged, breaking: true, member: "get", from: "GetResp", to: "OtherResp"},
		{kind: ToolAsyncRemoved, breaking: true, member: "get", from: "GetWorking"},
		{kind: ToolAsyncAdded, member: "get", to: "GetWorking"},
		{kind: CodeRemoved, breaking: true, member: "GONE"},
		{kind: CodeAdded, member: "AUTH_MISSING", to: "correctable"},
		{kind: CodeRecoveryChanged, breaking: true, member: "RATE_LIMITED", from: "transient", to: "correctable"},
		{kind: CodeDeprecated, member: "AUTH_REQUIRED"},
		{kind: DefaultRecoveryChanged, breaking: true, to: "transient"},
		{kind: DetailsRemoved, breaking: true, member: "GONE"},
		{kind: DetailsAdded, member: "AUTH_MISSING", to: "RateDetails"},
		{kind: DetailsTypeChanged, breaking: true, member: "RATE_LIMITED", from: "RateDetails", to: "OtherResp"},
		{kind: AlternateDetailsAdded, member: "RATE_LIMITED", to: "RateDetails"},
	})
	if !r.HasBreaking() || r.Count(CatTools).Breaking != 3 || r.Count(CatTools).Compatible != 3 {
		t.Errorf("tool counts = %+v", r.Count(CatTools))
	}
}

func TestCompareNilRegistry(t *testing.T) {
	r := Compare(&ir.Package{}, &ir.Package{Registry: &ir.Registry{Codes: registry.ErrorCodes{{Code: "X"}}}}, Side{}, Side{})
	checkChanges(t, r.Changes, []want{{kind: CodeAdded, member: "X"}})
	if r.To.Codes != 1 || r.From.Codes != 0 {
		t.Errorf("sides = %+v %+v", r.From, r.To)
	}
}

func TestReportOrderAndCounts(t *testing.T) {
	old := pkg(structType("B", "b.json", field("x", "X", str(), false)), enumType(t, "E", "e.json", "EA=a"), structType("Z", "z.json"))
	new := pkg(structType("A", "a.json"), structType("B", "b.json"), enumType(t, "E", "e.json", "EA=a", "EB=b"))
	new.Registry.Codes = registry.ErrorCodes{{Code: "C"}}
	r := Compare(old, new, Side{Version: "1"}, Side{Version: "2"})
	var got []string
	for _, c := range r.Changes {
		got = append(got, string(c.Kind)+" "+c.Type+c.Member)
	}
	wantOrder := []string{"type-added A", "type-removed Z", "field-removed Bx", `enum-value-added E"b"`, "code-added C"}
	if strings.Join(got, "|") != strings.Join(wantOrder, "|") {
		t.Errorf("order:\n got %q\nwant %q", got, wantOrder)
	}
	if r.Breaking != 2 || r.Compatible != 3 {
		t.Errorf("breaking=%d compatible=%d, want 2 and 3", r.Breaking, r.Compatible)
	}
	if len(r.Categories) != len(Categories) {
		t.Fatalf("categories = %d, want every one listed", len(r.Categories))
	}
	if n := r.Count(CatTypes); n.Breaking != 1 || n.Compatible != 1 {
		t.Errorf("types count = %+v", n)
	}
	if got := len(r.Select(CatEnums, EnumValueAdded)); got != 1 {
		t.Errorf("Select = %d changes", got)
	}
	if r.From.Types != 3 || r.To.Types != 3 || r.To.Codes != 1 {
		t.Errorf("sides = %+v %+v", r.From, r.To)
	}
}

// Arms are matched by identity, never by position: an arm inserted before
// others shifts their indexes and renames nothing; a removed arm is that
// arm; arms in another order are one compatible change.
func TestCompareArmsByIdentity(t *testing.T) {
	// A union of struct arms, each named after its union and kind and
	// located at its index, as the generator makes them.
	build := func(kinds ...string) *ir.Package {
		var types []*ir.Type
		u := unionType("Asset", "format.json")
		for i, k := range kinds {
			name := "Asset" + strings.ToUpper(k[:1]) + k[1:]
			at := fmt.Sprintf("format.json#/oneOf/%d", i)
			st := digested(structType(name, at, field("url", "URL", str(), true)), "digest-of-"+k)
			st.Loc = schema.Loc{File: "format.json", Pointer: fmt.Sprintf("/oneOf/%d", i)}
			a := discArm(t, strings.ToUpper(k[:1])+k[1:], k, ir.NamedRef(st))
			a.Loc = st.Loc
			u.Union.Arms = append(u.Union.Arms, a)
			types = append(types, st)
		}
		return pkg(append(types, u)...)
	}
	cases := []struct {
		name     string
		old, new []string
		want     []want
	}{
		{"an arm inserted", []string{"image", "url", "webhook"}, []string{"image", "daast", "url", "webhook"},
			[]want{{kind: TypeAdded, typ: "AssetDaast"}, {kind: ArmAdded, typ: "Asset", member: "Daast", to: "*AssetDaast"}}},
		{"an arm removed", []string{"image", "daast", "url"}, []string{"image", "url"},
			[]want{{kind: TypeRemoved, breaking: true, typ: "AssetDaast"}, {kind: ArmRemoved, breaking: true, typ: "Asset", member: "Daast"}}},
		{"arms reordered", []string{"image", "url", "webhook"}, []string{"webhook", "image", "url"},
			[]want{{kind: ArmsReordered, typ: "Asset", from: "Image, Url, Webhook", to: "Webhook, Image, Url"}}},
		{"inserted and reordered", []string{"image", "url"}, []string{"url", "vast", "image"},
			[]want{{kind: TypeAdded, typ: "AssetVast"}, {kind: ArmAdded, member: "Vast"},
				{kind: ArmsReordered, typ: "Asset", from: "Image, Url", to: "Url, Image"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Compare(build(tc.old...), build(tc.new...), Side{}, Side{})
			checkChanges(t, r.Changes, tc.want)
		})
	}
	// The arm's type renamed, its schema unchanged, its index moved: one
	// rename of the type, none of the arm.
	old, renamed := build("image", "url"), build("daast", "image", "url")
	for _, ty := range renamed.Types {
		if ty.Name == "AssetUrl" {
			ty.Name = "AssetLink"
		}
	}
	r := Compare(old, renamed, Side{}, Side{})
	checkChanges(t, r.Changes, []want{
		{kind: TypeRenamed, breaking: true, typ: "AssetLink", from: "AssetUrl", to: "AssetLink"},
		{kind: TypeAdded, typ: "AssetDaast"}, {kind: ArmAdded, member: "Daast"},
	})
}
