package generator

import (
	"bytes"
	"go/ast"
	"go/doc/comment"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

// TestDocCommentsRenderAsProse generates every published version, the
// golden cases and the embedded core schemas, and checks each doc comment
// the way go doc and pkgsite read it (go/doc/comment): schema text must
// stay prose, so no comment may contain a heading, which gofmt would
// otherwise write as "// # Text". gofmt must also leave every file as is.
func TestDocCommentsRenderAsProse(t *testing.T) {
	for _, v := range testspec.Versions {
		t.Run(v.Version, func(t *testing.T) {
			tree := openCorpus(t, v.Source)
			res, err := Generate(Options{Tree: tree, Package: "adcp", SpecName: "AdCP " + v.Version, Source: v.Version})
			if err != nil {
				t.Fatal(err)
			}
			checkDocComments(t, res.Files)
		})
	}
	for _, name := range goldenCases {
		t.Run("golden/"+name, func(t *testing.T) {
			checkDocComments(t, generateCase(t, name).Files)
		})
	}
	t.Run("generated/adcp", func(t *testing.T) {
		res, err := Generate(Options{Tree: embeddedTree(t), Package: "adcp"})
		if err != nil {
			t.Fatal(err)
		}
		checkDocComments(t, res.Files)
	})
}

func checkDocComments(t *testing.T, files []File) {
	t.Helper()
	headings := 0
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		formatted, err := format.Source(f.Data)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		if !bytes.Equal(formatted, f.Data) {
			t.Errorf("%s: gofmt changes the file", f.Name)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.Name, f.Data, parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		for _, cg := range docComments(file) {
			for _, h := range findHeadings(cg.Text()) {
				headings++
				if headings <= 20 {
					t.Errorf("%s: the doc comment has the heading %q", fset.Position(cg.Pos()), h)
				}
			}
		}
	}
	if headings > 20 {
		t.Errorf("%d headings in all (the first 20 are listed)", headings)
	}
}

// docComments lists every doc comment of the file: of declarations, specs,
// struct fields and constants in groups.
func docComments(f *ast.File) []*ast.CommentGroup {
	var out []*ast.CommentGroup
	add := func(cg *ast.CommentGroup) {
		if cg != nil {
			out = append(out, cg)
		}
	}
	add(f.Doc)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			add(n.Doc)
		case *ast.FuncDecl:
			add(n.Doc)
		case *ast.TypeSpec:
			add(n.Doc)
		case *ast.ValueSpec:
			add(n.Doc)
		case *ast.Field:
			add(n.Doc)
		}
		return true
	})
	return out
}

// findHeadings returns the text of every heading go/doc/comment finds.
func findHeadings(text string) []string {
	var p comment.Parser
	var out []string
	for _, b := range p.Parse(text).Content {
		if h, ok := b.(*comment.Heading); ok {
			var pr comment.Printer
			out = append(out, strings.TrimSpace(string(pr.Text(&comment.Doc{Content: []comment.Block{h}}))))
		}
	}
	return out
}
