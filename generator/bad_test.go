package generator

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/spec"
)

// Broken schema trees fail with "file#/pointer: what is wrong", never a
// panic and never output.
func TestBrokenSchemas(t *testing.T) {
	cases := []struct{ dir, want string }{
		{"dangling-ref", `core/a.json#/properties/x/$ref: $ref "/schemas/1.0.0/core/missing.json" does not resolve: no schema core/missing.json in the tree`},
		{"dangling-pointer", `core/a.json#/properties/x/$ref: $ref "#/definitions/nope" does not resolve: core/a.json has no schema at #/definitions/nope`},
		{"invalid-json", `core/a.json#/properties/x/type: invalid JSON at line 2, column 40: want a string key, got '}'`},
		{"bad-type", `core/a.json#/properties/x/type/1: unknown type "strng" (want string, number, integer, boolean, object, array or null)`},
		{"duplicate-key", `core/a.json#/properties/x/type: invalid JSON at line 2, column 48: duplicate key "type"`},
		{"duplicate-id", `core/b.json#/$id: duplicate $id "/schemas/1.0.0/core/a.json" (also in core/a.json)`},
		{"wrong-keyword-type", `core/a.json#/required: want an array of strings, got string`},
		{"not-a-schema", `core/a.json#/properties/x: a schema must be an object or a boolean, got number`},
		{"forbidden-property", `core/a.json#/properties/__proto__: invalid JSON at line 2, column 28: forbidden key "__proto__"`},
		{"fragment-anchor", `core/a.json#/properties/x/$ref: $ref "#name": plain-name fragments are not supported, use a JSON pointer`},
	}
	for _, tc := range cases {
		t.Run(tc.dir, func(t *testing.T) {
			tree, err := spec.Open(filepath.Join("testdata", "bad", tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Generate(Options{Tree: tree, Package: "bad"})
			if err == nil {
				t.Fatalf("generated %d files from a broken tree", len(res.Files))
			}
			if err.Error() != tc.want {
				t.Fatalf("error:\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

func TestBadPackageNames(t *testing.T) {
	for _, name := range []string{"", "func", "Adcp", "my-pkg", "1x"} {
		if err := CheckPackageName(name); err == nil {
			t.Errorf("package name %q accepted", name)
		}
	}
	if !strings.Contains(CheckPackageName("Adcp").Error(), "lower case") {
		t.Error("upper-case names need a clear reason")
	}
}
