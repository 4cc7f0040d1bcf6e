package runtime

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// notGo are the code blocks in doc comments that show something other
// than Go a user would copy, by file: they stay.
var notGo = map[string]string{
	"spec/cache.go":       "the cache directory's layout",
	"spec/lock.go":        "adcp.lock's JSON",
	"adcperr/safe.go":     "the delimiters around seller text given to a model",
	"wireimpl/version.go": "the handshake statements generated code holds, N its version",
	"task/doc.go":         "what a generated descriptor's type is",
}

// Go in doc comments is not compiled and drifts (a Brief: "CTV" once stood
// in runtime/buyer where Brief is a *string): code a user copies belongs
// in Example functions, which are compiled and run. So no doc comment of a
// runtime package has a code block, but the few that show no Go.
func TestDocCommentsHaveNoGoBlocks(t *testing.T) {
	checked, seen := 0, map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		path = filepath.ToSlash(path)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				checked++
				if !strings.HasPrefix(c.Text, "//\t") {
					continue
				}
				if _, ok := notGo[path]; ok {
					seen[path] = true
					continue
				}
				t.Errorf("%s: a code block in a doc comment: %q; write an Example instead", path, c.Text)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 5000 {
		t.Fatalf("only %d comment lines checked", checked)
	}
	for path := range notGo {
		if !seen[path] {
			t.Errorf("%s has no code block any more: drop it from notGo", path)
		}
	}
}
