package generator

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/generator/internal/schema"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// FuzzGenerate feeds one schema file through the whole pipeline. Whatever
// the input, generation must not panic, and it either succeeds or fails
// with a located schema error: emitting code that does not format is a
// generator bug.
func FuzzGenerate(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
		`{"oneOf":[{"type":"object","properties":{"k":{"const":"x"}},"required":["k"]},{"type":"object","properties":{"k":{"const":"y"}},"required":["k"]}]}`,
		`{"type":["string","number","null"]}`,
		`{"anyOf":[{"type":"null"},{"$ref":"#/definitions/d"}],"definitions":{"d":{"enum":["a","b",1]}}}`,
		`{"type":"object","patternProperties":{"^x":{"type":"array","items":{"$ref":"#"}}},"additionalProperties":false}`,
		`{"allOf":[{"$ref":"/schemas/1/core/b.json"},{"properties":{"z":{"type":"integer"}}}]}`,
		`{"type":"object","additionalProperties":false}`,
		`{"properties":{"p":{"type":"object","patternProperties":{"^a":{"type":"string"},"(":{"type":"number"}}}}}`,
		`{"anyOf":[{"$ref":"#"}],"oneOf":[{"allOf":[{"$ref":"#"}]}]}`,
		`{"properties":{"type":{"const":true},"default":{"enum":[]},"*/":{"description":"*/ /* \u0000"}}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		fsys := fstest.MapFS{
			"core/a.json": {Data: []byte(`{"$id":"/schemas/1/core/a.json",` + strings.TrimPrefix(doc, "{"))},
			"core/b.json": {Data: []byte(`{"$id":"/schemas/1/core/b.json","type":"object","properties":{"b":{"type":"boolean"}}}`)},
		}
		tree, err := spec.OpenFS(fsys, "fuzz", spec.KindDir)
		if err != nil {
			t.Skip()
		}
		_, err = Generate(Options{Tree: tree, Package: "fuzz"})
		var se *schema.Error
		if err != nil && !errors.As(err, &se) && !strings.Contains(err.Error(), "--include") {
			t.Fatalf("unlocated error for %s: %v", doc, err)
		}
	})
}
