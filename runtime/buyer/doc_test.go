package buyer

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Go in this package's doc comments is not compiled and drifts (a Brief:
// "CTV" once stood where Brief is a *string): code belongs in Example
// functions, which are. So no doc comment has a code block.
func TestDocCommentsHaveNoCodeBlocks(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				checked++
				if strings.HasPrefix(c.Text, "//\t") {
					t.Errorf("%s: a code block in a doc comment: %q; write an Example instead", name, c.Text)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d comment lines checked", checked)
	}
}
