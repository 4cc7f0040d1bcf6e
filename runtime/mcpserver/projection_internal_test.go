package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// The published trees: 3.2.0-beta.5 ships a projection covering every tool
// of its manifest, each input schema an object schema MCP takes; the
// versions before it ship none.
func TestPublishedProjections(t *testing.T) {
	for _, v := range testspec.Versions {
		t.Run(v.Version, func(t *testing.T) {
			tree, err := spec.Open(filepath.Join(testspec.Dir(t), v.Source))
			if err != nil {
				t.Fatal(err)
			}
			p, err := loadProjection(tree)
			if err != nil {
				t.Fatal(err)
			}
			if v.Version != "3.2.0-beta.5" {
				if p != nil {
					t.Fatalf("a projection in %s", p.dir)
				}
				return
			}
			if p == nil || p.dir != "mcp/2026-07-28" {
				t.Fatalf("projection %+v, want mcp/2026-07-28", p)
			}
			m, err := registry.LoadManifest(tree.FS, tree.Source)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.tools) != len(m.Tools) {
				t.Errorf("the projection covers %d tools, the manifest lists %d", len(p.tools), len(m.Tools))
			}
			for _, tool := range m.Tools {
				pt, ok := p.tool(tool.Name)
				if !ok || pt.input == "" || pt.output == "" {
					t.Errorf("%s: %+v", tool.Name, pt)
					continue
				}
				if _, err := schemaFile(tree, pt.input, true); err != nil {
					t.Error(err)
				}
				if _, err := schemaFile(tree, pt.output, false); err != nil {
					t.Error(err)
				}
			}
			in, _ := schemaFile(tree, p.tools["create_media_buy"].input, true)
			bundled, err := bundleSchema(tree, "media-buy/create-media-buy-request.json")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("create_media_buy input schema: projection %d bytes, bundled %d bytes", len(in), len(bundled))
		})
	}
}

// FuzzProjection: any projection manifest and schema either loads or
// fails with an error naming the file; never a panic, never a path outside
// the projection.
func FuzzProjection(f *testing.F) {
	f.Add(`{"tools": {"t": {"inputSchema": "a.json", "outputSchema": "a.json"}}}`, `{"type": "object"}`)
	f.Add(`{"tools": {"t": {"inputSchema": "../../x.json"}}}`, `{}`)
	f.Add(`{"tools": {"t": {"inputSchema": "/abs.json"}}}`, `[]`)
	f.Add(`{"tools": null}`, `{"type": ["object"]}`)
	f.Fuzz(func(t *testing.T, manifest, schema string) {
		tree, err := spec.OpenFS(fstest.MapFS{
			"core/error.json":              {Data: []byte(`{"type": "object"}`)},
			"mcp/2026-07-28/manifest.json": {Data: []byte(manifest)},
			"mcp/2026-07-28/a.json":        {Data: []byte(schema)},
		}, "fuzz", spec.KindDir)
		if err != nil {
			t.Fatal(err)
		}
		p, err := loadProjection(tree)
		if err != nil {
			if !strings.Contains(err.Error(), "mcp/2026-07-28/manifest.json") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		for name, pt := range p.tools {
			for _, file := range []string{pt.input, pt.output} {
				if file != "" && !strings.HasPrefix(file, "mcp/2026-07-28/") {
					t.Fatalf("%s: %s is outside the projection", name, file)
				}
			}
			if pt.input != "" {
				if _, err := schemaFile(tree, pt.input, true); err != nil && !strings.Contains(err.Error(), pt.input) {
					t.Fatalf("error without the file: %v", err)
				}
			}
		}
	})
}
