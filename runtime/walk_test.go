package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// publicFile is one non-test Go file of a runtime package users import
// (internal and testdata directories aside), parsed.
type publicFile struct {
	pkg  string // the package's directory below runtime/, slash-separated
	path string
	fset *token.FileSet
	f    *ast.File
}

// publicFiles parses, with mode, every non-test Go file of the runtime
// packages users import: the walk the API tests share.
func publicFiles(t *testing.T, mode parser.Mode) []publicFile {
	t.Helper()
	var out []publicFile
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
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, mode)
		if err != nil {
			return err
		}
		out = append(out, publicFile{pkg: filepath.ToSlash(filepath.Dir(path)), path: filepath.ToSlash(path), fset: fset, f: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("only %d files found under runtime/: the walk missed some", len(out))
	}
	return out
}
