package load

import (
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/runtime/spec"
)

// TestLoadSkipsDerivedFolders: bundled/, mcp/ and core/async-response-refs/
// hold copies and projections of the canonical schemas (the copies reuse the
// originals' $ids); none becomes a document, and each is reported once.
func TestLoadSkipsDerivedFolders(t *testing.T) {
	const product = `{"$id":"/schemas/3.2.0/core/product.json","type":"object","properties":{"id":{"type":"string"}}}`
	fsys := fstest.MapFS{
		"core/product.json":                                   {Data: []byte(product)},
		"core/async-response-refs/core/product.json":          {Data: []byte(product)},
		"bundled/core/product.json":                           {Data: []byte(product)},
		"mcp/2026-07-28/media-buy/get-products-response.json": {Data: []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"external:core/product.json":{"type":"object"}}}`)},
		"media-buy/mcp/thing.json":                            {Data: []byte(`{"$id":"/schemas/3.2.0/media-buy/mcp/thing.json","type":"string"}`)},
	}
	tree, err := spec.OpenFS(fsys, "test", spec.KindEmbedded)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Load(tree)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range set.Docs {
		got = append(got, d.Path)
	}
	// A folder named mcp below the root is an ordinary folder.
	if want := []string{"core/product.json", "media-buy/mcp/thing.json"}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("documents %v, want %v", got, want)
	}
	skipped := map[string]bool{}
	for _, s := range set.Skipped {
		skipped[s.Path] = true
	}
	for _, d := range []string{"bundled/", "mcp/", "core/async-response-refs/"} {
		if !skipped[d] {
			t.Errorf("%s not reported as skipped (skipped: %v)", d, set.Skipped)
		}
	}
}
