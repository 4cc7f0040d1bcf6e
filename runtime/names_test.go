package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// conventionalNames may repeat: New is a package's constructor by Go
// convention, always read qualified (extract.New, buyer.New).
var conventionalNames = map[string]bool{"New": true}

// stillShared lists the names that repeat, each in exactly these packages,
// where each is the plainest word for its thing, always read qualified, and
// the pair names two ends or two views of the same thing:
//   - Call: buyer.Call makes a tool call (a function), seller.Call is the
//     call a seller received (a type, paired with seller.Answer). Request,
//     the other word for it, would read like net/http's, whose Context()
//     means the Go context and not the AdCP context object.
//   - Result: task.Result is a tool's typed outcome, which handlers return
//     and buyer.Call hands back; extract.Result is what extraction found in
//     one envelope (Form, Failure). Both appear in README examples.
//   - Tool: task.Tool is the typed handle generated packages export
//     (adcp.Tools.GetProducts), registry.Tool the spec's entry for a tool;
//     renaming either changes every generated package.
//
// The test fails when an entry no longer matches, so the list only shrinks.
var stillShared = map[string][]string{
	"Call":   {"buyer", "seller"},
	"Result": {"extract", "task"},
	"Tool":   {"registry", "task"},
}

// No exported package-level name (type, function, variable, constant)
// appears in two runtime packages: a name met in a program says which
// package's thing it is.
func TestExportedNamesAreUnique(t *testing.T) {
	byName := map[string][]string{}
	packages := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// internal packages are no one's API: runtime/internal/wiredesc
			// declares what runtime/wireimpl re-exports by alias.
			if d.Name() == "testdata" || d.Name() == "internal" || strings.HasPrefix(d.Name(), ".") && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		packages[pkg] = true
		for _, name := range exportedNames(f) {
			if !slices.Contains(byName[name], pkg) {
				byName[name] = append(byName[name], pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(packages) < 20 || len(byName) < 200 {
		t.Fatalf("only %d packages and %d exported names found under runtime: the walk missed some", len(packages), len(byName))
	}
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		pkgs := byName[name]
		sort.Strings(pkgs)
		want, listed := stillShared[name]
		switch {
		case listed && !slices.Equal(pkgs, want):
			t.Errorf("%s is declared in %v, stillShared says %v: update the list (it only shrinks)", name, pkgs, want)
		case len(pkgs) > 1 && !listed && !conventionalNames[name]:
			t.Errorf("%s is exported by %d runtime packages (%s): rename all but one", name, len(pkgs), strings.Join(pkgs, ", "))
		}
	}
	for name := range stillShared {
		if _, ok := byName[name]; !ok {
			t.Errorf("stillShared lists %s, which no runtime package exports any more", name)
		}
	}
}

// exportedNames lists the exported package-level names a file declares
// (methods are not package-level).
func exportedNames(f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						out = append(out, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}
