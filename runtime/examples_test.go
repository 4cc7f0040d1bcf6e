package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// An example is code users copy: go doc and pkg.go.dev show an Example
// function with its imports, and the docs weave docs/examples into their
// pages. Each imports public packages only, so that what it shows compiles
// in a user's module (an internal package of this one cannot be imported
// from another). The walk covers every runtime package, nested modules
// included, and docs/examples.
func TestExamplesImportPublicOnly(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Glob(filepath.Join("..", "docs", "examples", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, docs...)
	examples, snippets := 0, 0
	for _, path := range files {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		shown := hasExample(f)
		if slices.Contains(docs, path) && !strings.HasSuffix(path, "_test.go") {
			shown = true // woven into the docs
			snippets++
		} else if shown {
			examples++
		}
		if !shown {
			continue
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if internalPath(p) {
				t.Errorf("%s imports %s, which a user's module cannot: use public packages only (generated/adcpt is the test schema tree's package)", filepath.ToSlash(path), p)
			}
		}
	}
	if examples < 20 || snippets < 5 {
		t.Fatalf("found %d files with examples and %d docs/examples files: the walk missed some", examples, snippets)
	}
}

// hasExample reports whether f declares an Example function go doc shows.
func hasExample(f *ast.File) bool {
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Example") {
			return true
		}
	}
	return false
}

// internalPath reports whether an import path has an internal element,
// which Go lets only the tree above it import.
func internalPath(p string) bool {
	return slices.Contains(strings.Split(p, "/"), "internal")
}

func TestInternalPath(t *testing.T) {
	for p, want := range map[string]bool{
		"github.com/adcpgen/adcpgen/internal/sellertest":   true,
		"github.com/adcpgen/adcpgen/runtime/internal/wire": true,
		"internal/x": true,
		"github.com/adcpgen/adcpgen/generated/adcpt":       false,
		"github.com/adcpgen/adcpgen/runtime/internalx":     false,
		"github.com/adcpgen/adcpgen/runtime/seller/rpcerr": false,
	} {
		if got := internalPath(p); got != want {
			t.Errorf("internalPath(%q) = %v, want %v", p, got, want)
		}
	}
}
