package runtime

import (
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"testing"
)

// The package doc is the runtime's map: every package under runtime/ (a
// directory holding non-test Go files, internal ones aside) is named in it,
// so a new package cannot be left off.
func TestMapNamesEveryPackage(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package comment")
	}
	doc := f.Doc.Text()
	var pkgs []string
	for _, pf := range publicFiles(t, parser.PackageClauseOnly) {
		if pf.pkg != "." && !slices.Contains(pkgs, pf.pkg) {
			pkgs = append(pkgs, pf.pkg)
		}
	}
	if len(pkgs) < 30 {
		t.Fatalf("found only %d packages under runtime/: %v", len(pkgs), pkgs)
	}
	for _, p := range pkgs {
		// A whole word: "wire" is not named by "wireimpl", nor "discovery"
		// alone by anything but "signing/discovery".
		re := regexp.MustCompile(`(^|[^\w/])` + regexp.QuoteMeta(p) + `($|[^\w/])`)
		if !re.MatchString(doc) {
			t.Errorf("runtime/%s is missing from the map in runtime/doc.go", p)
		}
	}
}
