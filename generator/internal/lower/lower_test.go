package lower_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/load"
	"github.com/adcpgen/adcpgen/generator/internal/lower"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// lowerDoc lowers a tree of core/a.json (the schema under test) and
// core/b.json (a small object it may reference) and returns the package
// and the type of core/a.json's root.
func lowerDoc(t *testing.T, doc string) (*ir.Package, *ir.Type) {
	t.Helper()
	fsys := fstest.MapFS{
		"core/a.json": {Data: []byte(`{"$id":"/schemas/1/core/a.json",` + strings.TrimPrefix(doc, "{"))},
		"core/b.json": {Data: []byte(`{"$id":"/schemas/1/core/b.json","type":"object","properties":{"b":{"type":"boolean"}}}`)},
	}
	tree, err := spec.OpenFS(fsys, "test", spec.KindDir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := load.Load(tree)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := lower.Build(set, lower.Options{Include: []string{"core/a.json"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ty := range pkg.Types {
		if ty.Loc.File == "core/a.json" && ty.Loc.Pointer == "" {
			return pkg, ty
		}
	}
	t.Fatalf("no type for the root of core/a.json among %d types", len(pkg.Types))
	return nil, nil
}

// describe renders a type compactly: its kind and, one level deep, what it
// holds; named types it refers to appear as @file#pointer.
func describe(t *ir.Type) string {
	switch t.Kind {
	case ir.KindStruct:
		var parts []string
		for _, f := range t.Fields {
			s := f.JSONName + ":" + ref(f.Type)
			if !f.Required {
				s += "?"
			}
			if f.Const != nil {
				s += "=" + f.Const.JSON()
			}
			if f.Fixed {
				s += "(fixed)"
			}
			if f.Indirect {
				s += "(indirect)"
			}
			parts = append(parts, s)
		}
		for _, p := range t.Patterns {
			parts = append(parts, "/"+p.Pattern+"/:"+ref(p.Type))
		}
		switch t.Extra.Mode {
		case ir.ExtraKeep:
			parts = append(parts, "+keep")
		case ir.ExtraReject:
			parts = append(parts, "+reject")
		case ir.ExtraTyped:
			parts = append(parts, "+map[string]"+ref(t.Extra.Type))
		}
		return "struct{" + strings.Join(parts, " ") + "}"
	case ir.KindEnum:
		var vals []string
		for _, v := range t.Values {
			vals = append(vals, v.Value.JSON())
		}
		return "enum " + builtin(t.EnumBase) + "[" + strings.Join(vals, " ") + "]"
	case ir.KindScalar:
		return "scalar " + ref(t.Underlying)
	case ir.KindSlice, ir.KindMap:
		return ref(t.Underlying)
	case ir.KindUnion:
		u := t.Union
		var arms []string
		for _, a := range u.Arms {
			s := ref(a.Type)
			switch u.Strategy {
			case ir.ByConst:
				var disc []string
				for _, vs := range a.Disc {
					for _, v := range vs {
						disc = append(disc, v.JSON())
					}
				}
				s += "[" + strings.Join(disc, ",") + "]"
			case ir.ByPresence:
				s += "[" + strings.Join(a.Required, ",")
				if len(a.Forbidden) > 0 {
					s += " !" + strings.Join(a.Forbidden, ",!")
				}
				s += "]"
			}
			arms = append(arms, s)
		}
		strategy := map[ir.Strategy]string{ir.ByKind: "kind", ir.ByConst: "const", ir.ByPresence: "presence", ir.ByTrial: "trial"}[u.Strategy]
		if u.Strategy == ir.ByConst {
			strategy += "(" + strings.Join(u.DiscProps, ",") + ")"
		}
		return "union " + strategy + " " + strings.Join(arms, " | ")
	case ir.KindRaw:
		return "raw"
	}
	return fmt.Sprintf("kind %d", t.Kind)
}

func ref(r *ir.Ref) string {
	switch r.Kind {
	case ir.RefBuiltin:
		return builtin(r.Builtin)
	case ir.RefNamed:
		return "@" + r.Named.Loc.String()
	case ir.RefSlice:
		return "[]" + ref(r.Elem)
	case ir.RefMap:
		return "map[string]" + ref(r.Elem)
	case ir.RefNullable:
		return "Nullable[" + ref(r.Elem) + "]"
	}
	return "?"
}

func builtin(b ir.Builtin) string {
	return map[ir.Builtin]string{ir.String: "string", ir.Int: "int64", ir.Float: "float64", ir.Bool: "bool",
		ir.Raw: "raw", ir.DateTime: "DateTime", ir.Date: "Date"}[b]
}

func TestBuildShapes(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"scalars, required and optional",
			`{"type":"object","properties":{"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"}},"required":["s"]}`,
			"struct{s:string i:int64? n:float64? b:bool? +keep}"},
		{"properties without a type keyword still make an object",
			`{"properties":{"s":{"type":"string"}}}`,
			"struct{s:string? +keep}"},
		{"additionalProperties false rejects unknown members",
			`{"type":"object","properties":{"s":{"type":"string"}},"additionalProperties":false}`,
			"struct{s:string? +reject}"},
		{"additionalProperties schema with properties types the rest",
			`{"type":"object","properties":{"s":{"type":"string"}},"additionalProperties":{"type":"integer"}}`,
			"struct{s:string? +map[string]int64}"},
		{"additionalProperties schema alone is a map",
			`{"type":"object","additionalProperties":{"type":"string"}}`,
			"map[string]string"},
		{"patternProperties are tried before the rest",
			`{"type":"object","properties":{"s":{"type":"string"}},"patternProperties":{"^x_":{"type":"number"}},"additionalProperties":false}`,
			"struct{s:string? /^x_/:float64 +reject}"},
		{"formats", `{"type":"object","properties":{"t":{"type":"string","format":"date-time"},"d":{"type":"string","format":"date"},"u":{"type":"string","format":"uri"}}}`,
			"struct{t:DateTime? d:Date? u:string? +keep}"},
		{"type with null is nullable",
			`{"type":"object","properties":{"s":{"type":["string","null"]}}}`,
			"struct{s:Nullable[string]? +keep}"},
		{"a required const is checked, not a field",
			`{"type":"object","properties":{"k":{"const":"x"},"o":{"type":"string","const":"y"}},"required":["k"]}`,
			`struct{k:string="x"(fixed) o:string?="y" +keep}`},
		{"string enum", `{"type":"string","enum":["b","a"]}`, `enum string["b" "a"]`},
		{"integer enum", `{"type":"integer","enum":[2,1]}`, "enum int64[2 1]"},
		{"array of a referenced object",
			`{"type":"object","properties":{"l":{"type":"array","items":{"$ref":"/schemas/1/core/b.json"}}}}`,
			"struct{l:[]@core/b.json#? +keep}"},
		{"top-level array", `{"type":"array","items":{"type":"string"}}`, "[]string"},
		{"allOf merges objects",
			`{"allOf":[{"$ref":"/schemas/1/core/b.json"},{"type":"object","properties":{"z":{"type":"integer"}},"required":["z"]}]}`,
			"struct{b:bool? z:int64 +keep}"},
		{"a recursive required member is indirect",
			`{"type":"object","properties":{"self":{"$ref":"#"},"kids":{"type":"array","items":{"$ref":"#"}}},"required":["self"]}`,
			"struct{self:@core/a.json#(indirect) kids:[]@core/a.json#? +keep}"},
		{"nothing said about a member's type is raw JSON", `{"type":"object","properties":{"x":{},"y":{"description":"anything"}}}`,
			"struct{x:raw? y:raw? +keep}"},
		{"oneOf by JSON type",
			`{"oneOf":[{"type":"string"},{"type":"integer"}]}`,
			"union kind string | int64"},
		{"oneOf by a const discriminator",
			`{"oneOf":[{"type":"object","properties":{"k":{"const":"x"},"a":{"type":"string"}},"required":["k"]},{"type":"object","properties":{"k":{"const":"y"},"b":{"type":"string"}},"required":["k"]}]}`,
			`union const(k) @core/a.json#/oneOf/0["x"] | @core/a.json#/oneOf/1["y"]`},
		{"oneOf by required keys",
			`{"oneOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]}]}`,
			"union presence @core/a.json#/oneOf/0[a] | @core/a.json#/oneOf/1[b]"},
		{"arms no key tells apart are tried in order",
			`{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"integer"}}}]}`,
			"union trial @core/a.json#/anyOf/0 | @core/a.json#/anyOf/1"},
		{"anyOf with null is a nullable value",
			`{"type":"object","properties":{"r":{"anyOf":[{"type":"null"},{"$ref":"/schemas/1/core/b.json"}]}}}`,
			"struct{r:Nullable[@core/b.json#]? +keep}"},
		{"a oneOf of required lists only constrains",
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}`,
			"struct{a:string? b:string? +keep}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ty := lowerDoc(t, tc.doc)
			if got := describe(ty); got != tc.want {
				t.Errorf("lowered\n%s\nto  %s\nwant %s", tc.doc, got, tc.want)
			}
		})
	}
}

// Fallbacks to raw JSON are recorded with their location, and a leaf the
// schema leaves untyped is told apart from one the generator gave up on.
func TestBuildFallbacks(t *testing.T) {
	pkg, _ := lowerDoc(t, `{"type":"object","properties":{"any":{"description":"free-form"}}}`)
	var got []string
	for _, f := range pkg.Fallbacks {
		got = append(got, fmt.Sprintf("%s leaf=%v", f.Loc, f.Leaf))
	}
	want := "core/a.json#/properties/any leaf=true"
	if strings.Join(got, "; ") != want {
		t.Errorf("fallbacks = %q, want %q", got, want)
	}
}

// Include globs select the roots; one that matches nothing, or is not a
// valid pattern, is an error naming it.
func TestBuildInclude(t *testing.T) {
	fsys := fstest.MapFS{
		"core/a.json": {Data: []byte(`{"$id":"/schemas/1/core/a.json","type":"string"}`)},
		"core/b.json": {Data: []byte(`{"$id":"/schemas/1/core/b.json","type":"integer"}`)},
	}
	tree, err := spec.OpenFS(fsys, "test", spec.KindDir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := load.Load(tree)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		include []string
		want    string // files of the types built, or the error
	}{
		{nil, "core/a.json core/b.json"},
		{[]string{"core/b.json"}, "core/b.json"},
		{[]string{"core/*"}, "core/a.json core/b.json"},
		{[]string{"media-buy/*"}, `error: --include "media-buy/*"`},
		{[]string{"["}, `error: --include "["`},
	}
	for _, tc := range tests {
		pkg, err := lower.Build(set, lower.Options{Include: tc.include})
		var got string
		if err != nil {
			got = "error: " + err.Error()
		} else {
			var files []string
			for _, ty := range pkg.Types {
				files = append(files, ty.Loc.File)
			}
			got = strings.Join(files, " ")
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("Include %q: got %s, want %s", tc.include, got, tc.want)
		}
	}
}

// allOf merges enums as JSON Schema does: a value is one every merged
// schema lists (3.1's create_media_buy success status is both a TaskStatus
// and a MediaBuyStatus, so only completed, canceled and rejected are
// valid); an empty intersection keeps the first list.
func TestAllOfEnumIntersection(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{`{"allOf":[{"enum":["submitted","completed","failed","canceled"]},{"enum":["active","completed","canceled"]}]}`, []string{`"completed"`, `"canceled"`}},
		{`{"enum":["a","b"],"allOf":[{"enum":["b","c"]}]}`, []string{`"b"`}},
		{`{"allOf":[{"enum":["a"]},{"enum":["b"]}]}`, []string{`"a"`}},
	} {
		_, ty := lowerDoc(t, `{"type":"string",`+strings.TrimPrefix(tc.doc, "{"))
		var got []string
		for _, v := range ty.Values {
			got = append(got, v.Value.JSON())
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: values %v, want %v", tc.doc, got, tc.want)
		}
	}
}
