package registry_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

func openTree(t *testing.T, source string) *spec.Tree {
	t.Helper()
	tree, err := spec.Open(testspec.Path(t, filepath.FromSlash(source)))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// plainCodes reads a manifest's error codes with encoding/json alone, as
// the independent reference ParseManifest is checked against.
func plainCodes(t *testing.T, fsys fs.FS) (map[string]string, map[string]bool) {
	t.Helper()
	data, err := fs.ReadFile(fsys, registry.ManifestName)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Codes map[string]map[string]any `json:"error_codes"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	rec, dep := map[string]string{}, map[string]bool{}
	for code, c := range m.Codes {
		rec[code], _ = c["recovery"].(string)
		desc, _ := c["description"].(string)
		d, _ := c["deprecated"].(bool)
		dep[code] = d || strings.HasPrefix(desc, "**Deprecated**")
	}
	return rec, dep
}

func TestLoadManifestPublished(t *testing.T) {
	cases := []struct {
		source  string
		codes   int
		results int // 0: no task_result_resolution
	}{
		{"protocol/3.0.26.tgz", 45, 0},
		{"schemas/3.1.19", 92, 0},
		{"schemas/3.2.0-beta.3", 109, 73},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.source), func(t *testing.T) {
			tree := openTree(t, c.source)
			m, err := registry.LoadManifest(tree.FS, c.source)
			if err != nil {
				t.Fatal(err)
			}
			if m.Version != tree.Version {
				t.Errorf("adcp_version %q, tree says %q", m.Version, tree.Version)
			}
			if len(m.Codes) != c.codes {
				t.Errorf("%d codes, want %d", len(m.Codes), c.codes)
			}
			rec, dep := plainCodes(t, tree.FS)
			for i, e := range m.Codes {
				if i > 0 && m.Codes[i-1].Code >= e.Code {
					t.Errorf("codes not sorted at %s", e.Code)
				}
				if string(e.Recovery) != rec[e.Code] || e.Deprecated != dep[e.Code] {
					t.Errorf("%s: parsed %s deprecated=%v, manifest says %s deprecated=%v", e.Code, e.Recovery, e.Deprecated, rec[e.Code], dep[e.Code])
				}
			}
			if m.UnknownRecovery != registry.Transient {
				t.Errorf("default_unknown_recovery %q, want transient", m.UnknownRecovery)
			}
			if r, ok := m.CodeTable().Recovery("RATE_LIMITED"); !ok || r != registry.Transient {
				t.Errorf("RATE_LIMITED: %q, %v", r, ok)
			}
			tool, ok := toolNamed(m, "create_media_buy")
			if !ok || !tool.Mutating || tool.Protocol != "media-buy" || tool.RequestSchema != "media-buy/create-media-buy-request.json" ||
				len(tool.AsyncSchemas) != 3 {
				t.Errorf("create_media_buy: %+v", tool)
			}
			if len(m.Results) != c.results {
				t.Errorf("%d webhook results, want %d", len(m.Results), c.results)
			}
			if c.results == 0 {
				return
			}
			// 3.2.0-beta.3: every tool's response schema, plus one override
			// for a task type that is no tool.
			if m.ResultDiscriminator != "task_type" {
				t.Errorf("discriminator %q", m.ResultDiscriminator)
			}
			if len(m.Results) != len(m.Tools)+1 {
				t.Errorf("%d results for %d tools", len(m.Results), len(m.Tools))
			}
			results := map[string]string{}
			for _, r := range m.Results {
				results[r.TaskType] = r.Schema
			}
			if got := results["media_buy_delivery"]; got != "media-buy/media-buy-delivery-webhook-result.json" {
				t.Errorf("media_buy_delivery override: %q", got)
			}
			for _, tl := range m.Tools {
				if results[tl.Name] != tl.ResponseSchema {
					t.Errorf("%s: result %q, response schema %q", tl.Name, results[tl.Name], tl.ResponseSchema)
				}
			}
			if !tool.IdempotencyRequired || !tool.Deprecated {
				t.Errorf("create_media_buy in 3.2.0-beta.3 requires idempotency and is deprecated: %+v", tool)
			}
		})
	}
}

func toolNamed(m *registry.Manifest, name string) (registry.ManifestTool, bool) {
	for _, t := range m.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return registry.ManifestTool{}, false
}

func TestLoadManifestAbsent(t *testing.T) {
	tree := openTree(t, "schemas/2.5.3")
	_, err := registry.LoadManifest(tree.FS, "2.5.3")
	if !errors.Is(err, registry.ErrNoManifest) || !strings.HasPrefix(err.Error(), "2.5.3: ") {
		t.Fatalf("got %v, want ErrNoManifest naming the tree", err)
	}
}

func TestParseManifestErrors(t *testing.T) {
	const tool = `{"request_schema":"a/x-request.json","response_schema":"a/x-response.json"}`
	cases := []struct {
		name, json, want string
	}{
		{"not JSON", `{`, "m.json: unexpected end of JSON input"},
		{"no error codes", `{"tools":{}}`, "m.json: /error_codes: want an object of error codes"},
		{"tool not an object", `{"tools":{"x":1},"error_codes":{}}`, "m.json: /tools/x: json: cannot unmarshal"},
		{"tool without schemas", `{"tools":{"x":{"request_schema":"a.json"}},"error_codes":{}}`, "m.json: /tools/x: want request_schema and response_schema"},
		{"pointer escaping", `{"tools":{"a/b~c":{}},"error_codes":{}}`, "m.json: /tools/a~1b~0c: want request_schema"},
		{"empty code", `{"tools":{"x":` + tool + `},"error_codes":{"":{"recovery":"terminal"}}}`, "m.json: /error_codes: empty error code"},
		{"code not an object", `{"error_codes":{"X":"terminal"}}`, "m.json: /error_codes/X: want an object with a recovery"},
		{"code without recovery", `{"error_codes":{"X":{}}}`, "m.json: /error_codes/X/recovery: want a string"},
		{"unknown class", `{"error_codes":{"X":{"recovery":"fatal"}}}`, `m.json: /error_codes/X/recovery: "fatal" is not transient, correctable or terminal`},
		{"unknown policy", `{"error_codes":{},"error_code_policy":{"default_unknown_recovery":"retry"}}`,
			`m.json: /error_code_policy/default_unknown_recovery: "retry" is not transient`},
		{"other template", `{"error_codes":{},"task_result_resolution":{"terminal_schema_pointer_template":"/x/{task_type}"}}`,
			`m.json: /task_result_resolution/terminal_schema_pointer_template: "/x/{task_type}" is not the one template`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := registry.ParseManifest([]byte(c.json), "m.json")
			if err == nil {
				t.Fatalf("parsed %+v, want an error", m)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got  %v\nwant %s...", err, c.want)
			}
		})
	}
}

func TestParseManifestMinimal(t *testing.T) {
	m, err := registry.ParseManifest([]byte(`{
		"adcp_version": "9.9.9",
		"tools": {
			"b_tool": {"protocol": "p", "request_schema": "p/b-request.json", "response_schema": "p/b-response.json",
				"idempotency_requirement": "optional", "deprecated_in": "9.9.9"},
			"a_tool": {"protocol": "p", "mutating": true, "idempotency_requirement": "required",
				"request_schema": "p/a-request.json", "response_schema": "p/a-response.json",
				"async_response_schemas": ["p/a-async-response-working.json"]}
		},
		"error_codes": {
			"Z": {"recovery": "transient"},
			"A": {"recovery": "terminal", "deprecated": true}
		}
	}`), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []registry.ManifestTool{
		{Name: "a_tool", Protocol: "p", Mutating: true, IdempotencyRequired: true, RequestSchema: "p/a-request.json",
			ResponseSchema: "p/a-response.json", AsyncSchemas: []string{"p/a-async-response-working.json"}},
		{Name: "b_tool", Protocol: "p", Deprecated: true, RequestSchema: "p/b-request.json", ResponseSchema: "p/b-response.json"},
	}
	if len(m.Tools) != 2 {
		t.Fatalf("tools %+v", m.Tools)
	}
	for i := range want {
		g, w := m.Tools[i], want[i]
		if g.Name != w.Name || g.Protocol != w.Protocol || g.Mutating != w.Mutating || g.IdempotencyRequired != w.IdempotencyRequired ||
			g.Deprecated != w.Deprecated || g.RequestSchema != w.RequestSchema || g.ResponseSchema != w.ResponseSchema ||
			strings.Join(g.AsyncSchemas, ",") != strings.Join(w.AsyncSchemas, ",") {
			t.Errorf("tool %d: got %+v, want %+v", i, g, w)
		}
	}
	wantCodes := registry.ErrorCodes{{Code: "A", Recovery: registry.Terminal, Deprecated: true}, {Code: "Z", Recovery: registry.Transient}}
	if len(m.Codes) != 2 || m.Codes[0] != wantCodes[0] || m.Codes[1] != wantCodes[1] {
		t.Errorf("codes %+v, want %+v", m.Codes, wantCodes)
	}
	if m.Version != "9.9.9" || m.UnknownRecovery != "" || m.Results != nil {
		t.Errorf("version %q, unknown %q, results %v", m.Version, m.UnknownRecovery, m.Results)
	}
}
