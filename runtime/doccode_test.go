package runtime

import (
	"go/parser"
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
	for _, pf := range publicFiles(t, parser.ParseComments) {
		for _, cg := range pf.f.Comments {
			for _, c := range cg.List {
				checked++
				if !strings.HasPrefix(c.Text, "//\t") {
					continue
				}
				if _, ok := notGo[pf.path]; ok {
					seen[pf.path] = true
					continue
				}
				t.Errorf("%s: a code block in a doc comment: %q; write an Example instead", pf.path, c.Text)
			}
		}
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
