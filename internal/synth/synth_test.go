package synth

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// A small tree in the published shape (core/ and $ids carrying a version),
// with one schema per feature the synthesiser handles.
var testTree = map[string]string{
	"core/error.json": `{"$id": "/schemas/9.9.9/core/error.json", "type": "object",
		"properties": {"code": {"type": "string"}, "message": {"type": "string"}, "retry_after": {"type": "integer", "minimum": 1, "maximum": 3600}},
		"required": ["code", "message"], "additionalProperties": false}`,
	"core/abs.json": `{"$id": "https://adcontextprotocol.org/schemas/9.9.9/core/abs.json",
		"type": "object", "properties": {"err": {"$ref": "https://adcontextprotocol.org/schemas/9.9.9/core/error.json"},
		"local": {"$ref": "#/definitions/word"}}, "required": ["err", "local"],
		"definitions": {"word": {"type": "string", "pattern": "^[a-z]{3}$"}}}`,
	"core/union.json": `{"$id": "/schemas/9.9.9/core/union.json", "oneOf": [
		{"type": "object", "properties": {"kind": {"const": "a"}, "a": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}}, "required": ["kind", "a"], "additionalProperties": false},
		{"type": "object", "properties": {"kind": {"const": "b"}, "b": {"type": "boolean"}}, "required": ["kind"], "additionalProperties": false},
		{"type": "string", "format": "date-time"}]}`,
	"core/xor.json": `{"$id": "/schemas/9.9.9/core/xor.json", "type": "object",
		"properties": {"one": {"type": "string"}, "many": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true}, "kind": {"const": "all"}},
		"required": ["kind"],
		"allOf": [{"not": {"required": ["one", "many"]}}, {"anyOf": [{"required": ["one"]}, {"required": ["many"]}]}]}`,
	"core/cond.json": `{"$id": "/schemas/9.9.9/core/cond.json", "type": "object",
		"properties": {"mode": {"enum": ["plain", "special"]}, "extra": {"type": "string", "format": "uri"}, "a": {"type": "string"}, "b": {"type": "string"}},
		"required": ["mode"],
		"if": {"properties": {"mode": {"const": "special"}}}, "then": {"required": ["extra"]},
		"dependencies": {"a": ["b"]}, "additionalProperties": false}`,
	"core/strings.json": `{"$id": "/schemas/9.9.9/core/strings.json", "type": "object",
		"properties": {
			"when": {"type": "string", "format": "date-time"}, "day": {"type": "string", "format": "date"},
			"link": {"type": "string", "format": "uri"}, "mail": {"type": "string", "format": "email"},
			"id": {"type": "string", "format": "uuid"}, "host": {"type": "string", "format": "hostname"},
			"iso": {"type": "string", "pattern": "^P(?!$)(\\d+D)?(T(\\d+H)?)?$"},
			"code": {"type": "string", "pattern": "^[A-Z]{2}-\\u0041\\d{3}$"},
			"named": {"type": "string", "pattern": "^x+$", "examples": ["xxx"]},
			"long": {"type": "string", "minLength": 12, "maxLength": 12},
			"nullable": {"type": ["string", "null"]}},
		"required": ["when", "day", "link", "mail", "id", "host", "iso", "code", "named", "long", "nullable"]}`,
	"core/arrays.json": `{"$id": "/schemas/9.9.9/core/arrays.json", "type": "object",
		"properties": {
			"tags": {"type": "array", "items": {"enum": ["x", "y", "z"]}, "minItems": 3, "uniqueItems": true},
			"has": {"type": "array", "items": {"type": "integer"}, "contains": {"const": 7}},
			"map": {"type": "object", "propertyNames": {"pattern": "^k_[0-9]+$"}, "additionalProperties": {"type": "integer"}, "minProperties": 1}},
		"required": ["tags", "has", "map"]}`,
	"core/tree.json": `{"$id": "/schemas/9.9.9/core/tree.json", "type": "object",
		"properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "/schemas/9.9.9/core/tree.json"}}},
		"required": ["name"]}`,
	"core/never.json": `{"$id": "/schemas/9.9.9/core/never.json", "type": "object", "properties": {"x": false}, "required": ["x"]}`,
}

func loadTest(t *testing.T) (*Tree, *validate.Validator) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, body := range testTree {
		fsys[name] = &fstest.MapFile{Data: []byte(body)}
	}
	st, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := spec.OpenFS(fsys, "test", spec.KindDir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st, v
}

// synthValid builds an instance and checks the validator accepts it.
func synthValid(t *testing.T, st *Tree, v *validate.Validator, ref string, opts Options) (*Instance, map[string]any) {
	t.Helper()
	inst, err := st.Synthesize(ref, opts)
	if err != nil {
		t.Fatal(err)
	}
	data := Marshal(inst.Value)
	issues, err := v.Validate(ref, data)
	if err != nil || len(issues) > 0 || len(inst.Problems) > 0 {
		t.Fatalf("%s %+v: %s\nissues %v, err %v, problems %v", ref, opts, data, issues, err, inst.Problems)
	}
	var doc map[string]any
	json.Unmarshal(data, &doc)
	return inst, doc
}

func TestMinimalAndMaximal(t *testing.T) {
	st, v := loadTest(t)
	_, minDoc := synthValid(t, st, v, "core/error.json", Options{})
	if len(minDoc) != 2 {
		t.Errorf("minimal error: %v, want only code and message", minDoc)
	}
	inst, maxDoc := synthValid(t, st, v, "core/error.json", Options{Max: true})
	if len(maxDoc) != 3 {
		t.Errorf("maximal error: %v, want code, message and retry_after (closed: no extra)", maxDoc)
	}
	if inst.Extras {
		t.Error("closed object reported extra members")
	}
	// An open object gets an unknown member in its maximal instance.
	inst, maxDoc = synthValid(t, st, v, "core/tree.json", Options{Max: true})
	if _, ok := maxDoc["x_synth"]; !ok || !inst.Extras {
		t.Errorf("open object: %v, extras %v; want an x_synth member", maxDoc, inst.Extras)
	}
	if kids, _ := maxDoc["children"].([]any); len(kids) != 2 {
		t.Errorf("maximal array near the top: %v, want two items", maxDoc["children"])
	}
}

func TestRefsInBothIDStyles(t *testing.T) {
	st, v := loadTest(t)
	for _, ref := range []string{"core/abs.json", "/schemas/9.9.9/core/abs.json", "https://adcontextprotocol.org/schemas/9.9.9/core/abs.json", "core/abs.json#/definitions/word"} {
		synthValid(t, st, v, strings.Replace(ref, "/schemas/9.9.9/", "/schemas/9.9.9/", 1), Options{Max: true})
	}
	if _, err := st.Synthesize("core/missing.json", Options{}); err == nil {
		t.Error("unknown schema: no error")
	}
	if _, err := st.Synthesize("core/abs.json#/definitions/nope", Options{}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown fragment: %v", err)
	}
}

func TestUnionArmsByVariant(t *testing.T) {
	st, v := loadTest(t)
	first, _ := synthValid(t, st, v, "core/union.json", Options{})
	if first.Arms != 3 {
		t.Fatalf("arms %d, want 3", first.Arms)
	}
	var kinds []string
	for variant := range first.Arms {
		for _, max := range []bool{false, true} {
			inst, _ := synthValid(t, st, v, "core/union.json", Options{Variant: variant, Max: max})
			kinds = append(kinds, jsonType(inst.Value)+":"+string(Marshal(inst.Value)))
		}
	}
	got := strings.Join(kinds, " ")
	for _, want := range []string{`"kind":"a"`, `"kind":"b"`, `"b":true`, `string:"2026-01-15T10:30:00Z"`} {
		if !strings.Contains(got, want) {
			t.Errorf("variants %s: no %s", got, want)
		}
	}
}

func TestRepairsNotAnyOfAndConditions(t *testing.T) {
	st, v := loadTest(t)
	for variant := range 2 {
		for _, max := range []bool{false, true} {
			_, doc := synthValid(t, st, v, "core/xor.json", Options{Variant: variant, Max: max})
			_, one := doc["one"]
			_, many := doc["many"]
			if one == many {
				t.Errorf("xor v%d max=%v: %v, want exactly one of one/many", variant, max, doc)
			}
		}
	}
	for variant := range 2 {
		_, doc := synthValid(t, st, v, "core/cond.json", Options{Variant: variant, Max: true})
		if doc["mode"] == "special" && doc["extra"] == nil {
			t.Errorf("then-branch not applied: %v", doc)
		}
		if doc["a"] != nil && doc["b"] == nil {
			t.Errorf("dependency not applied: %v", doc)
		}
	}
}

func TestStringsFormatsPatterns(t *testing.T) {
	st, v := loadTest(t)
	_, doc := synthValid(t, st, v, "core/strings.json", Options{Max: true})
	if doc["named"] != "xxx" {
		t.Errorf("pattern with examples: %v, want the example", doc["named"])
	}
	if s, _ := doc["iso"].(string); s == "P" || !strings.HasPrefix(s, "P") {
		t.Errorf("lookahead pattern: %q", s)
	}
	_, doc = synthValid(t, st, v, "core/strings.json", Options{})
	if doc["nullable"] != nil {
		t.Errorf("minimal nullable: %v, want null", doc["nullable"])
	}
}

func TestArrays(t *testing.T) {
	st, v := loadTest(t)
	for _, max := range []bool{false, true} {
		_, doc := synthValid(t, st, v, "core/arrays.json", Options{Max: max})
		if tags, _ := doc["tags"].([]any); len(tags) != 3 {
			t.Errorf("unique enum items: %v", doc["tags"])
		}
	}
}

func TestRecursionStaysBounded(t *testing.T) {
	st, v := loadTest(t)
	inst, _ := synthValid(t, st, v, "core/tree.json", Options{Max: true})
	if n := len(Marshal(inst.Value)); n > 10000 {
		t.Errorf("recursive schema made %d bytes", n)
	}
}

func TestUnsatisfiableIsAProblem(t *testing.T) {
	st, _ := loadTest(t)
	inst, err := st.Synthesize("core/never.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(inst.Problems) == 0 || !strings.Contains(strings.Join(inst.Problems, "\n"), "/x: schema false") {
		t.Errorf("problems %v, want one at /x", inst.Problems)
	}
}

func TestMutations(t *testing.T) {
	st, v := loadTest(t)
	inst, _ := synthValid(t, st, v, "core/abs.json", Options{Max: true})
	byOp := map[string]Mutation{}
	for _, m := range st.Mutations(inst) {
		if _, ok := byOp[m.Op]; !ok {
			byOp[m.Op] = m
		}
	}
	want := map[string]string{
		OpDropRequired: "",               // the root object
		OpWrongType:    "/err",           // the first plain member
		OpProto:        "/__proto__",     // the first object
		OpProtoEscaped: "/err/__proto__", // the deepest object
		OpDuplicate:    "/err",
		OpUnknown:      "/err/zz_synth_unknown", // the only closed object
	}
	for op, ptr := range want {
		m, ok := byOp[op]
		if !ok {
			t.Errorf("no %s mutation", op)
			continue
		}
		if m.Pointer != ptr {
			t.Errorf("%s: pointer %q, want %q (%s)", op, m.Pointer, ptr, m.Data)
		}
		issues, _ := v.Validate("core/abs.json", m.Data)
		if visible := op == OpDropRequired || op == OpWrongType || op == OpUnknown; visible && len(issues) == 0 {
			t.Errorf("%s: the validator accepts %s", op, m.Data)
		}
	}
	if d := string(byOp[OpProtoEscaped].Data); !strings.Contains(d, `"\u005f_proto__":{}`) {
		t.Errorf("escaped key not written raw: %s", d)
	}
	if d := string(byOp[OpDuplicate].Data); strings.Count(d, `"err":`) != 2 {
		t.Errorf("duplicate: %s", d)
	}
	// A scalar root gets a wrong-typed root.
	inst, _ = synthValid(t, st, v, "core/abs.json#/definitions/word", Options{})
	ms := st.Mutations(inst)
	if len(ms) != 1 || ms[0].Op != OpWrongType || ms[0].Pointer != "" || string(ms[0].Data) != "12345" {
		t.Errorf("scalar root mutations: %+v", ms)
	}
}

func TestMarshalAndEqual(t *testing.T) {
	o := &Obj{Members: []Member{{Key: "a\"b", Val: []any{json.Number("1.5"), nil, true, "x\n"}}}}
	if got := string(Marshal(o)); got != `{"a\"b":[1.5,null,true,"x\n"]}` {
		t.Errorf("Marshal: %s", got)
	}
	if !equal(map[string]any{"a": float64(1)}, &Obj{Members: []Member{{Key: "a", Val: json.Number("1.0")}}}) {
		t.Error("equal: schema literal vs instance")
	}
	if equal(&Obj{}, []any{}) || equal(json.Number("1"), "1") {
		t.Error("equal: different types compare equal")
	}
}

func TestMembers(t *testing.T) {
	st, _ := loadTest(t)
	decl, req, err := st.Members("core/union.json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(decl, ",") != "a,b,kind" || strings.Join(req, ",") != "a,kind" {
		t.Errorf("declared %v, required %v", decl, req)
	}
	if _, _, err := st.Members("core/nope.json"); err == nil {
		t.Error("unknown schema: no error")
	}
}

// Copies and projections (bundled/, mcp/, core/async-response-refs/) are
// not schemas of the tree: their nullable locations would otherwise be
// counted as unreached, and their $ids clash with the originals'.
func TestLoadSkipsDerivedFolders(t *testing.T) {
	fsys := fstest.MapFS{
		"core/a.json":                         {Data: []byte(`{"type": ["string", "null"]}`)},
		"mcp/2026-07-28/media-buy/x.json":     {Data: []byte(`{"type": ["string", "null"]}`)},
		"bundled/core/a.json":                 {Data: []byte(`{"type": ["string", "null"]}`)},
		"core/async-response-refs/copy.json":  {Data: []byte(`{"type": ["string", "null"]}`)},
		"core/async-response-refs-not/b.json": {Data: []byte(`{"type": "string"}`)},
	}
	st, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]bool{
		"core/a.json": true, "core/async-response-refs-not/b.json": true,
		"mcp/2026-07-28/media-buy/x.json": false, "bundled/core/a.json": false, "core/async-response-refs/copy.json": false,
	} {
		if got := st.Has(ref); got != want {
			t.Errorf("Has(%s) = %v, want %v", ref, got, want)
		}
	}
	if got := st.NullableLocations(); !slices.Equal(got, []string{"core/a.json#"}) {
		t.Errorf("NullableLocations = %v, want only core/a.json#", got)
	}
}
