package generator

import (
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/generator/internal/schema"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// FuzzGenerate feeds one schema file through the whole pipeline. Whatever
// the input, generation must not panic, and it either succeeds or fails
// with a located schema error; what it generates must type-check (go/types,
// with runtime/wire and the standard library read from source once and
// cached for the run): emitting code that does not compile is a generator
// bug.
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
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	f.Fuzz(func(t *testing.T, doc string) {
		fsys := fstest.MapFS{
			"core/a.json": {Data: []byte(`{"$id":"/schemas/1/core/a.json",` + strings.TrimPrefix(doc, "{"))},
			"core/b.json": {Data: []byte(`{"$id":"/schemas/1/core/b.json","type":"object","properties":{"b":{"type":"boolean"}}}`)},
		}
		tree, err := spec.OpenFS(fsys, "fuzz", spec.KindDir)
		if err != nil {
			t.Skip()
		}
		res, err := Generate(Options{Tree: tree, Package: "fuzz"})
		var se *schema.Error
		if err != nil && !errors.As(err, &se) && !strings.Contains(err.Error(), "--include") {
			t.Fatalf("unlocated error for %s: %v", doc, err)
		}
		if err != nil {
			return
		}
		if err := typeCheck(fset, imp, res.Files); err != nil {
			t.Fatalf("generated code for %s does not type-check: %v", doc, err)
		}
	})
}

// typeCheck parses the generated Go files and type-checks them as one
// package, returning the first error.
func typeCheck(fset *token.FileSet, imp types.Importer, files []File) error {
	var parsed []*ast.File
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		file, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		parsed = append(parsed, file)
	}
	conf := types.Config{Importer: imp}
	_, err := conf.Check("example.com/fuzz", fset, parsed, nil)
	return err
}

// TestTypeCheckRejectsBrokenCode shows FuzzGenerate's check can fail: the
// generated package type-checks, and the same package with one bad
// reference into runtime/wire does not.
func TestTypeCheckRejectsBrokenCode(t *testing.T) {
	tree, err := spec.OpenFS(fstest.MapFS{
		"core/a.json": {Data: []byte(`{"$id":"/schemas/1/core/a.json","type":"object","properties":{"a":{"type":"string"}}}`)},
	}, "check", spec.KindDir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(Options{Tree: tree, Package: "fuzz"})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	if err := typeCheck(fset, imp, res.Files); err != nil {
		t.Fatalf("the generated package does not type-check: %v", err)
	}
	bad := append(res.Files[:len(res.Files):len(res.Files)], File{Name: "bad.go",
		Data: []byte("package fuzz\n\nimport \"github.com/adcpgen/adcpgen/runtime/wire\"\n\nvar _ = wire.NoSuchName\n")})
	if err := typeCheck(fset, imp, bad); err == nil || !strings.Contains(err.Error(), "NoSuchName") {
		t.Fatalf("typeCheck with an undefined name: %v, want an error naming it", err)
	}
}

// FuzzPreviousOf: reading names back from any file (hand-edited, truncated,
// not Go at all) never panics, and every name it keeps is a Go identifier
// the naming pass may check.
func FuzzPreviousOf(f *testing.F) {
	f.Add(headerLine + "\n\npackage x\n\n// X is x.\n//\n// Schema: /schemas/1/core/x.json#/oneOf/0 merged into core/y.json# (\"X\"), digest 0123\ntype X struct{}\n\nconst (\n\tXA X = 1\n)\n")
	f.Add("// Schema: \ntype \nfunc (\nconst (\n\t\n")
	f.Add("// Schema: a#b digest\ntype Y = z.Y\nvar (\n\tV, W = 1, 2\n)\nfunc F[T any]() {}\n")
	f.Fuzz(func(t *testing.T, src string) {
		p := PreviousOf([]File{{Name: "x_gen.go", Data: []byte(src)}})
		for key, name := range p.types {
			if key == "" || name == "" || strings.ContainsAny(name, " \t()[]") {
				t.Fatalf("kept %q for %q", name, key)
			}
		}
		_ = p.keep()
	})
}
