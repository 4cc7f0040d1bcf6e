package apidiff

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// sampleReport has one breaking and one compatible change in several
// categories.
func sampleReport(t *testing.T) *Report {
	old := pkg(structType("Thing", "core/thing.json", field("size", "Size", ir.BuiltinRef(ir.Int), false),
		field("name", "Name", str(), true)), enumType(t, "Color", "enums/color.json", "ColorRed=red"))
	new := pkg(structType("Thing", "core/thing.json", field("name", "Name", str(), true),
		field("tags", "Tags", ir.SliceOf(str()), false)), enumType(t, "Color", "enums/color.json", "ColorRed=red", "ColorBlue=blue"))
	new.Registry.Codes = registry.ErrorCodes{{Code: "AUTH_MISSING", Recovery: "correctable"}}
	return Compare(old, new, Side{Version: "1.0.0", Source: "1.0.0"}, Side{Version: "1.1.0", Source: "schemas/1.1.0"})
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport(t).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `Go API changes from AdCP 1.0.0 to 1.1.0 (schemas/1.1.0)
  from: 2 types, 0 tools, 0 error codes
  to:   2 types, 0 tools, 1 error codes

                  breaking  compatible
  types                  0           0
  fields                 1           1
  enum values            0           1
  union arms             0           0
  tools                  0           0
  error codes            0           1
  error details          0           0
  total                  1           3

BREAKING (1)

  fields (1)
    Thing
      removed Size (size) (was *int64) — code using it stops compiling

COMPATIBLE (3)

  fields (1)
    Thing
      added Tags (tags) []string

  enum values (1)
    Color
      added "blue" (ColorBlue)

  error codes (1)
    added error code AUTH_MISSING (correctable)
`
	if got := b.String(); got != want {
		t.Errorf("text output:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport(t).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	want := "# Go API changes: AdCP 1.0.0 → 1.1.0 (schemas/1.1.0)\n\n" +
		"- from: 2 types, 0 tools, 0 error codes\n- to: 2 types, 0 tools, 1 error codes\n\n" +
		"**1 breaking** and 3 compatible changes for a Go program written against the old package.\n\n" +
		"| category      | breaking | compatible |\n" +
		"|---------------|---------:|-----------:|\n" +
		"| types         |        0 |          0 |\n" +
		"| fields        |        1 |          1 |\n" +
		"| enum values   |        0 |          1 |\n" +
		"| union arms    |        0 |          0 |\n" +
		"| tools         |        0 |          0 |\n" +
		"| error codes   |        0 |          1 |\n" +
		"| error details |        0 |          0 |\n" +
		"| **total**     |        1 |          3 |\n" +
		"\n## Fields (1 breaking, 1 compatible)\n\n### Breaking\n\n" +
		"- `Thing`\n  - removed `Size` (`size`) (was `*int64`) — code using it stops compiling\n" +
		"\n### Compatible\n\n- `Thing`\n  - added `Tags` (`tags`) `[]string`\n" +
		"\n## Enum values (0 breaking, 1 compatible)\n\n### Compatible\n\n" +
		"- `Color`\n  - added `\"blue\"` (`ColorBlue`)\n" +
		"\n## Error codes (0 breaking, 1 compatible)\n\n### Compatible\n\n" +
		"- added error code `AUTH_MISSING` (correctable)\n"
	if got := b.String(); got != want {
		t.Errorf("markdown output:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteNothingChanged(t *testing.T) {
	r := Compare(pkg(structType("A", "a.json")), pkg(structType("A", "a.json")), Side{Version: "1"}, Side{Version: "1"})
	var text, md bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(text.String(), "\nNo changes.\n") {
		t.Errorf("text does not say nothing changed:\n%s", text.String())
	}
	if !strings.Contains(md.String(), "**Nothing breaks**") || strings.Contains(md.String(), "\n## ") {
		t.Errorf("markdown for no changes:\n%s", md.String())
	}
}

func TestWriteJSON(t *testing.T) {
	var a, b bytes.Buffer
	if err := sampleReport(t).WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	if err := sampleReport(t).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two runs gave different JSON")
	}
	// The documented shape: top-level keys in order, every category listed.
	var top struct {
		From       map[string]any   `json:"from"`
		To         map[string]any   `json:"to"`
		Breaking   int              `json:"breaking"`
		Compatible int              `json:"compatible"`
		Categories []map[string]any `json:"categories"`
		Changes    []map[string]any `json:"changes"`
	}
	dec := json.NewDecoder(bytes.NewReader(a.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&top); err != nil {
		t.Fatalf("JSON does not have the documented shape: %v\n%s", err, a.String())
	}
	if top.Breaking != 1 || top.Compatible != 3 || len(top.Categories) != len(Categories) || len(top.Changes) != 4 {
		t.Errorf("JSON summary: %+v", top)
	}
	if top.From["version"] != "1.0.0" || top.To["source"] != "schemas/1.1.0" {
		t.Errorf("sides: %v %v", top.From, top.To)
	}
	keys := []string{`"from"`, `"to"`, `"breaking"`, `"compatible"`, `"categories"`, `"changes"`}
	last := -1
	for _, k := range keys {
		i := bytes.Index(a.Bytes(), []byte("\n  "+k+":"))
		if i <= last {
			t.Fatalf("top-level key %s out of order in:\n%s", k, a.String())
		}
		last = i
	}
	first := top.Changes[0]
	for k, v := range map[string]any{"category": "fields", "kind": "field-removed", "breaking": true, "type": "Thing",
		"member": "size", "go_name": "Size", "from": "*int64", "reason": "code using it stops compiling"} {
		if first[k] != v {
			t.Errorf("first change %s = %v, want %v", k, first[k], v)
		}
	}
	if _, ok := first["to"]; ok {
		t.Errorf("empty members must be left out: %v", first)
	}
}

func TestDescribeEveryKind(t *testing.T) {
	kinds := []Kind{TypeAdded, TypeRemoved, TypeRenamed, TypeKindChanged, TypeUnderlyingChanged, TypeDeprecated,
		FieldAdded, FieldRemoved, FieldRenamed, FieldTypeChanged, FieldRequired, FieldOptional, FieldDeprecated,
		ExtraKept, ExtraRejected, ExtraTypeChanged, EnumValueAdded, EnumValueRemoved, EnumConstRenamed, EnumValueDeprecated,
		ArmAdded, ArmRemoved, ArmRenamed, ArmTypeChanged, ToolAdded, ToolRemoved, ToolDeprecated, ToolRequestChanged,
		ToolResponseChanged, ToolAsyncAdded, ToolAsyncRemoved, ToolAsyncChanged, CodeAdded, CodeRemoved,
		CodeRecoveryChanged, CodeDeprecated, DefaultRecoveryChanged, DetailsAdded, DetailsRemoved, DetailsTypeChanged,
		AlternateDetailsAdded, AlternateDetailsRemoved}
	seen := map[string]Kind{}
	for _, k := range kinds {
		ch := Change{Kind: k, Type: "T", Member: "m", GoName: "M", From: "A", To: "B"}
		got := ch.Describe()
		if strings.HasPrefix(got, string(k)) {
			t.Errorf("%s has no wording: %q", k, got)
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("%s and %s read the same: %q", prev, k, got)
		}
		seen[got] = k
	}
	if got := (Change{Kind: "made-up", Type: "T"}).Describe(); got != "made-up T" {
		t.Errorf("unknown kind described as %q", got)
	}
}
