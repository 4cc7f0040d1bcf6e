package mcpserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// Projection files of a test tree: an older projection and the newest,
// which covers get_products and create_media_buy but not list_creatives.
var projectionFiles = map[string]string{
	"mcp/2025-11-25/manifest.json": `{"tools": {"get_products": {"inputSchema": "old.json", "outputSchema": "old.json"}}}`,
	"mcp/2025-11-25/old.json":      `{"type": "object", "title": "old"}`,
	"mcp/2026-07-28/manifest.json": `{"mcp_protocol_version": "2026-07-28", "tools": {
		"get_products": {"inputSchema": "media-buy/get-products-request.json", "outputSchema": "media-buy/get-products-response.json"},
		"create_media_buy": {"inputSchema": "media-buy/create-media-buy-request.json", "outputSchema": "media-buy/create-media-buy-response.json"}}}`,
	"mcp/2026-07-28/media-buy/get-products-request.json": `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object", "title": "projected get_products request",
		"properties": {"brief": {"type": "string"}}}`,
	"mcp/2026-07-28/media-buy/get-products-response.json": `{"type": "object", "title": "projected get_products response"}`,
	"mcp/2026-07-28/media-buy/create-media-buy-request.json": `{"type": "object", "title": "projected create_media_buy request",
		"$defs": {"external:core/x.json": {"type": "string"}}}`,
	"mcp/2026-07-28/media-buy/create-media-buy-response.json": `{"title": "projected create_media_buy response"}`,
}

// treeWith copies the seller tests' schema tree into a directory, adds
// files (nil removes one) and opens it.
func treeWith(t *testing.T, files map[string]string) *spec.Tree {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, sellertest.Tree(t).FS); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := spec.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// listTools serves a seller over tree with opts and lists its tools.
func listTools(t *testing.T, tree *spec.Tree, opts mcpserver.Options) map[string]*mcp.Tool {
	t.Helper()
	s := sellertest.NewSeller(t, seller.Options{Schemas: tree})
	tools, err := rawSession(t, start(t, s, opts), "").ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range tools {
		out[tool.Name] = tool
	}
	return out
}

// schemaJSON is a schema as JSON with sorted keys ("" for none): the
// client hands schemas over as maps.
func schemaJSON(t *testing.T, v any) string {
	t.Helper()
	if v == nil {
		return ""
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return normal(t, string(raw))
}

// normal is JSON text with sorted keys and no spaces.
func normal(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// With Projections, tools/list publishes the newest projection's input
// schema for the tools it covers, and the bundled request schema for the
// others; output schemas only with OutputSchemas. Trees without a
// projection publish what they did.
func TestProjections(t *testing.T) {
	tree := treeWith(t, projectionFiles)
	bundled := listTools(t, tree, mcpserver.Options{})
	for name, tool := range bundled {
		if strings.Contains(schemaJSON(t, tool.InputSchema), "projected") || tool.OutputSchema != nil {
			t.Errorf("%s: the default publishes the projection: %s", name, schemaJSON(t, tool.InputSchema))
		}
	}
	projected := "mcp/2026-07-28/media-buy/"
	cases := []struct {
		name string
		opts mcpserver.Options
		in   map[string]string // tool -> projection file; "" = bundled
		out  map[string]string // tool -> projection file; absent = none
	}{
		{"projections", mcpserver.Options{Projections: true},
			map[string]string{"get_products": projected + "get-products-request.json", "create_media_buy": projected + "create-media-buy-request.json", "list_creatives": ""},
			map[string]string{}},
		{"output schemas", mcpserver.Options{Projections: true, OutputSchemas: true},
			map[string]string{"get_products": projected + "get-products-request.json", "list_creatives": ""},
			map[string]string{"get_products": projected + "get-products-response.json", "create_media_buy": projected + "create-media-buy-response.json"}},
		{"output schemas need projections", mcpserver.Options{OutputSchemas: true},
			map[string]string{"get_products": "", "create_media_buy": ""}, map[string]string{}},
		{"minimal wins", mcpserver.Options{Projections: true, OutputSchemas: true, MinimalInputSchemas: true},
			map[string]string{}, map[string]string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tools := listTools(t, tree, c.opts)
			for name, tool := range tools {
				got := schemaJSON(t, tool.InputSchema)
				file, listed := c.in[name]
				switch {
				case c.opts.MinimalInputSchemas:
					if got != `{"type":"object"}` {
						t.Errorf("%s: input %s", name, got)
					}
				case listed && file != "":
					if want := normal(t, projectionFiles[file]); got != want {
						t.Errorf("%s: input\n%s\nwant %s", name, got, want)
					}
				case listed:
					if want := schemaJSON(t, bundled[name].InputSchema); got != want {
						t.Errorf("%s: input %s, want the bundled schema", name, got)
					}
				}
				gotOut := schemaJSON(t, tool.OutputSchema)
				if file, ok := c.out[name]; ok {
					if want := normal(t, projectionFiles[file]); gotOut != want {
						t.Errorf("%s: output %s, want %s", name, gotOut, want)
					}
				} else if gotOut != "" {
					t.Errorf("%s: output schema %s, want none", name, gotOut)
				}
			}
		})
	}
	// No projection in the tree: the bundled schemas.
	for name, tool := range listTools(t, sellertest.Tree(t), mcpserver.Options{Projections: true, OutputSchemas: true}) {
		if got, want := schemaJSON(t, tool.InputSchema), schemaJSON(t, bundled[name].InputSchema); got != want || tool.OutputSchema != nil {
			t.Errorf("%s: without a projection: %s", name, got)
		}
	}
}

// A projection that is not what MCP takes stops NewServer with an error
// naming the file and what is wrong; go-sdk would panic on a non-object
// input schema.
func TestProjectionErrors(t *testing.T) {
	manifest := "mcp/2026-07-28/manifest.json"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"input schema not an object type", map[string]string{
			"mcp/2026-07-28/media-buy/get-products-request.json": `{"type": "array"}`,
		}, `mcp/2026-07-28/media-buy/get-products-request.json: /type: an input schema must have "type": "object", not array`},
		{"missing file", map[string]string{
			manifest: `{"tools": {"get_products": {"inputSchema": "nope.json"}}}`,
		}, "mcp/2026-07-28/nope.json: open"},
		{"outside the projection", map[string]string{
			manifest: `{"tools": {"get_products": {"inputSchema": "../../core/error.json"}}}`,
		}, `mcp/2026-07-28/manifest.json#/tools/get_products/inputSchema: "../../core/error.json" is not a file of mcp/2026-07-28`},
		{"bad manifest", map[string]string{manifest: `{"tools": [1]}`}, "mcp/2026-07-28/manifest.json: json: cannot unmarshal"},
		{"bad schema", map[string]string{"mcp/2026-07-28/media-buy/get-products-request.json": `{"type": "object",}`}, "get-products-request.json: invalid character"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range projectionFiles {
				files[k] = v
			}
			for k, v := range c.files {
				files[k] = v
			}
			s := sellertest.NewSeller(t, seller.Options{Schemas: treeWith(t, files)})
			_, err := mcpserver.NewServer(s.Server, mcpserver.Options{Projections: true, OutputSchemas: true})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}
