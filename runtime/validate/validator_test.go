package validate

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// Every schema file of every published version compiles, offline.
func TestEverySchemaCompiles(t *testing.T) {
	minFiles := map[string]int{"2.5.3": 150, "3.0.0": 480, "3.0.26": 500, "3.1.19": 640, "3.2.0-beta.3": 820, "3.2.0-beta.5": 820}
	for _, tv := range testspec.Versions {
		t.Run(tv.Version, func(t *testing.T) {
			v := versionValidator(t, tv.Version)
			if v.Version() != tv.Version {
				t.Errorf("version from $ids = %q, want %q", v.Version(), tv.Version)
			}
			paths, err := v.SchemaPaths()
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) < minFiles[tv.Version] {
				t.Fatalf("found %d schema files, want at least %d", len(paths), minFiles[tv.Version])
			}
			for _, p := range paths {
				if isSkipped(p) {
					t.Errorf("SchemaPaths lists %s, in a skipped folder", p)
				}
			}
			if err := v.CompileAll(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// One schema is reachable by either $id style, by path and by tool, and
// resolves to the same compiled schema.
func TestSchemaNames(t *testing.T) {
	cases := []struct {
		version string
		names   []string
		wantID  string
	}{
		{"3.1.19", []string{
			"/schemas/3.1.19/core/error.json",
			"https://adcontextprotocol.org/schemas/3.1.19/core/error.json",
			"core/error.json",
			"./core/error.json",
		}, "/schemas/3.1.19/core/error.json"},
		{"3.2.0-beta.3", []string{
			"https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/error.json",
			"/schemas/3.2.0-beta.3/core/error.json",
			"core/error.json",
		}, "https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/error.json"},
		{"3.0.26", []string{"media-buy/get-products-response.json", "schemas/media-buy/get-products-response.json", "/schemas/3.0.26/media-buy/get-products-response.json"}, "/schemas/3.0.26/media-buy/get-products-response.json"},
		// A copy in core/async-response-refs/ stands for the original its $id names.
		{"3.1.19", []string{"core/async-response-refs/media-buy/get-products-async-response-working.json", "media-buy/get-products-async-response-working.json"}, "/schemas/3.1.19/media-buy/get-products-async-response-working.json"},
	}
	for _, tc := range cases {
		v := versionValidator(t, tc.version)
		var first *Schema
		for _, name := range tc.names {
			s, err := v.Schema(name)
			if err != nil {
				t.Errorf("%s: Schema(%q): %v", tc.version, name, err)
				continue
			}
			if s.ID != tc.wantID {
				t.Errorf("%s: Schema(%q).ID = %q, want %q", tc.version, name, s.ID, tc.wantID)
			}
			if first == nil {
				first = s
			} else if s != first {
				t.Errorf("%s: Schema(%q) compiled again instead of coming from the cache", tc.version, name)
			}
		}
	}
}

// Sub-schemas are reachable by fragment, including refs into other files'
// fragments, #/definitions and #/$defs.
func TestFragments(t *testing.T) {
	v := versionValidator(t, "3.2.0-beta.3")
	cases := []struct {
		ref     string
		payload string
		valid   bool
	}{
		{"core/sla-window.json#/properties/response_max", `"PT4H"`, true},
		{"core/sla-window.json#/properties/response_max", `"P"`, false},
		{"https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/catalog.json#/properties/type", `"product"`, true},
		{"https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/catalog.json#/properties/type", `42`, false},
	}
	for _, tc := range cases {
		is, err := v.Validate(tc.ref, []byte(tc.payload))
		if err != nil {
			t.Errorf("%s: %v", tc.ref, err)
			continue
		}
		if (len(is) == 0) != tc.valid {
			t.Errorf("%s with %s: issues %v, want valid=%v", tc.ref, tc.payload, is, tc.valid)
		}
	}
	// Every kind of local and cross-file ref the corpus uses compiles (the
	// schemas holding them are in the every-schema test); these spot-check
	// that such refs are followed, not ignored.
	for _, ref := range []string{
		"media-buy/create-media-buy-response.json#/oneOf/0",
	} {
		if is, err := v.Validate(ref, []byte(`{}`)); err != nil || len(is) == 0 {
			t.Errorf("%s with {}: issues %v, err %v; want issues", ref, is, err)
		}
	}
}

func TestUnknownSchemas(t *testing.T) {
	v := versionValidator(t, "3.1.19")
	for _, ref := range []string{
		"core/nope.json",
		"/schemas/3.1.19/core/nope.json",
		"https://adcontextprotocol.org/schemas/3.0.0/core/error.json", // another version
		"https://example.com/schemas/3.1.19/core/error.json",
		"bundled/media-buy/get-products-response.json",
		"../etc/passwd",
		"",
		"core/error.json#not-a-pointer",
		"core/error.json#/properties/nope",
		"core/error.json#/required/99",
	} {
		_, err := v.Schema(ref)
		if !errors.Is(err, ErrUnknownSchema) {
			t.Errorf("Schema(%q): err = %v, want ErrUnknownSchema", ref, err)
		}
	}
	var out *OutsideTreeError
	_, err := v.Schema("https://example.com/schemas/3.1.19/core/error.json")
	if !errors.As(err, &out) || !strings.Contains(err.Error(), "https://example.com/schemas/3.1.19/core/error.json") {
		t.Errorf("outside URL: err = %v, want an OutsideTreeError naming the URL", err)
	}
}

// A $ref leaving the tree is a compile error naming the URL; nothing is
// fetched.
func TestRefOutsideTree(t *testing.T) {
	fsys := fstest.MapFS{
		"core/error.json": {Data: []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","$id":"/schemas/9.9.9/core/error.json","type":"object"}`)},
		"core/a.json":     {Data: []byte(`{"$id":"/schemas/9.9.9/core/a.json","properties":{"x":{"$ref":"https://example.com/evil.json"}}}`)},
		"core/b.json":     {Data: []byte(`{"$id":"/schemas/9.9.9/core/b.json","properties":{"x":{"$ref":"/schemas/9.9.9/core/missing.json"}}}`)},
		"core/c.json":     {Data: []byte(`{"$id":"/schemas/9.9.9/core/c.json","properties":{"x":{"$ref":"/schemas/9.9.9/core/error.json#/nowhere"}}}`)},
		"core/d.json":     {Data: []byte(`{"$id":"/schemas/9.9.9/core/d.json","pattern":"(?<"}`)},
		"core/e.json":     {Data: []byte(`{"$id":"/schemas/9.9.9/core/e.json","type":`)},
	}
	tree, err := spec.OpenFS(fsys, "memory", spec.KindEmbedded)
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(tree, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]string{
		"core/a.json": "https://example.com/evil.json",
		"core/b.json": "core/missing.json",
		"core/c.json": "nowhere",
		"core/d.json": "(?<",
		"core/e.json": "core/e.json",
	} {
		_, err := v.Schema(ref)
		var ce *CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
			t.Errorf("Schema(%s): err = %v, want a CompileError mentioning %q", ref, err, want)
		}
		// The failure is remembered, and the validator still works.
		if _, err2 := v.Schema(ref); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Schema(%s) again: %v, want the same error", ref, err2)
		}
	}
	if _, err := v.Schema("core/error.json"); err != nil {
		t.Errorf("after failures, a good schema: %v", err)
	}
	if err := v.CompileAll(); err == nil || !strings.Contains(err.Error(), "core/d.json") {
		t.Errorf("CompileAll: %v, want the failures joined", err)
	}
}

func TestTools(t *testing.T) {
	cases := []struct {
		version, tool string
		dir           Direction
		want          string
	}{
		{"2.5.3", "get_products", Request, "media-buy/get-products-request.json"},
		{"2.5.3", "list_creative_formats", Response, "media-buy/list-creative-formats-response.json"},
		{"3.0.0", "get_products", Response, "media-buy/get-products-response.json"},
		{"3.0.0", "get_adcp_capabilities", Request, "protocol/get-adcp-capabilities-request.json"},
		{"3.0.26", "get_products", Response, "media-buy/get-products-response.json"},
		{"3.1.19", "sync_accounts", Request, "account/sync-accounts-request.json"},
		{"3.2.0-beta.3", "get_signals", Response, "signals/get-signals-response.json"},
	}
	for _, tc := range cases {
		v := versionValidator(t, tc.version)
		got, err := v.ToolSchemaPath(tc.tool, tc.dir)
		if err != nil || got != tc.want {
			t.Errorf("%s %s %v = %q, %v; want %q", tc.version, tc.tool, tc.dir, got, err, tc.want)
			continue
		}
		if _, err := v.Tool(tc.tool, tc.dir); err != nil {
			t.Errorf("%s %s %v: %v", tc.version, tc.tool, tc.dir, err)
		}
	}
	for _, version := range []string{"2.5.3", "3.1.19"} {
		v := versionValidator(t, version)
		for _, tool := range []string{"no_such_tool", "Get_Products", "../x", ""} {
			if _, err := v.Tool(tool, Request); !errors.Is(err, ErrUnknownTool) {
				t.Errorf("%s Tool(%q): err = %v, want ErrUnknownTool", version, tool, err)
			}
		}
	}
}

// The naming convention (2.5.3, 3.0.0) agrees with 3.0.26's manifest for
// every tool the manifest lists.
func TestConventionMatchesManifest(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	manifest, err := loadTools(v.tree.FS)
	if err != nil || !manifest.fromManifest {
		t.Fatalf("3.0.26 manifest: %v", err)
	}
	convention, err := conventionTools(v.tree.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(manifest.tools) < 50 {
		t.Fatalf("manifest lists %d tools", len(manifest.tools))
	}
	for name, want := range manifest.tools {
		if got := convention.tools[name]; got != want {
			t.Errorf("%s: convention %v, manifest %v", name, got, want)
		}
	}
}

// Compilation is lazy and concurrent use is safe.
func TestConcurrentLazyCompile(t *testing.T) {
	tree, err := spec.Open(testspec.Path(t, "schemas", "3.1.19"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(tree, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tools := []string{"get_products", "create_media_buy", "get_signals", "sync_creatives"}
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := v.ValidateTool(tools[i%len(tools)], Response, []byte(`{}`)); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if n := len(v.compiled); n != len(tools) {
		t.Errorf("compiled %d root schemas, want %d (one per tool)", n, len(tools))
	}
	all, _ := v.SchemaPaths()
	if n := v.loaded.Load(); n == 0 || n > int64(len(all))/3 {
		t.Errorf("four tools loaded %d of %d schema files; want only what they reference", n, len(all))
	} else {
		t.Logf("four tools loaded %d of %d schema files", n, len(all))
	}
}
