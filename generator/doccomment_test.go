package generator

import (
	"bytes"
	"go/ast"
	"go/doc/comment"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/internal/testspec"
)

// TestDocCommentsRenderAsProse generates every published version, the
// golden cases and the embedded core schemas, and checks each doc comment
// the way go doc and pkgsite read it (go/doc/comment): schema text must
// stay prose, so no comment may contain a heading, which gofmt would
// otherwise write as "// # Text"; every exported declaration's comment
// begins with its name (staticcheck's rule: "X ...", or "A X ..."); and
// no type's first sentence only restates its title. gofmt must also
// leave every file as is.
func TestDocCommentsRenderAsProse(t *testing.T) {
	for _, v := range testspec.Versions {
		t.Run(v.Version, func(t *testing.T) {
			tree := openCorpus(t, v.Source)
			res, err := Generate(Options{Tree: tree, Package: "adcp", SpecName: "AdCP " + v.Version, Source: v.Version})
			if err != nil {
				t.Fatal(err)
			}
			pkg, _, err := build(tree, nil, naming.Keep{})
			if err != nil {
				t.Fatal(err)
			}
			checkDocComments(t, res.Files, pkg)
		})
	}
	for _, name := range goldenCases {
		t.Run("golden/"+name, func(t *testing.T) {
			checkDocComments(t, generateCase(t, name).Files, nil)
		})
	}
	t.Run("generated/adcp", func(t *testing.T) {
		res, err := Generate(Options{Tree: embeddedTree(t), Package: "adcp"})
		if err != nil {
			t.Fatal(err)
		}
		pkg, _, err := build(embeddedTree(t), nil, naming.Keep{})
		if err != nil {
			t.Fatal(err)
		}
		checkDocComments(t, res.Files, pkg)
	})
}

// checkDocComments checks the files' doc comments; with pkg, the IR they
// were generated from, type summaries are checked against the titles.
func checkDocComments(t *testing.T, files []File, pkg *ir.Package) {
	t.Helper()
	types := map[string]*ir.Type{}
	if pkg != nil {
		for _, ty := range pkg.Types {
			types[ty.Name] = ty
		}
	}
	unnamed, restated := 0, 0
	report := func(n *int, format string, args ...any) {
		if *n++; *n <= 10 {
			t.Errorf(format, args...)
		}
	}
	headings, markdown, unread := 0, 0, 0
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
			if m := markdownLeft(cg.Text()); m != "" {
				report(&markdown, "%s: Markdown left in a doc comment: %q", fset.Position(cg.Pos()), m)
			}
		}
		for _, d := range exportedDocs(file) {
			first := firstSentence(d.doc.Text())
			if !beginsWithName(first, d.name) {
				report(&unnamed, "%s: the comment of %s does not begin with its name: %q", fset.Position(d.doc.Pos()), d.name, first)
			}
			if m := notASentence.FindString(first); m != "" || strings.Contains(first, "~1") {
				report(&unread, "%s: the summary of %s does not read as a sentence (%q): %q", fset.Position(d.doc.Pos()), d.name, m, first)
			}
			if ty := types[d.name]; d.isType && ty != nil && restatesTitle(first, ty) {
				report(&restated, "%s: the summary of %s restates its title %q: %q", fset.Position(d.doc.Pos()), d.name, ty.Title, first)
			}
		}
	}
	if headings > 20 {
		t.Errorf("%d headings in all (the first 20 are listed)", headings)
	}
	if unnamed > 10 || restated > 10 || markdown > 10 || unread > 10 {
		t.Errorf("%d comments not beginning with their name, %d summaries restating a title, %d comments with Markdown, %d summaries not reading as sentences (the first 10 of each are listed)",
			unnamed, restated, markdown, unread)
	}
}

// notASentence matches a summary that joins its name to a description
// as if it were a noun phrase when it is not ("X is the was active",
// "X is the for categorical features").
var notASentence = regexp.MustCompile(`^\S+ is the (was|were|is|are|has|have|must|should|may|for|with|when|if|whether|true (if|when|only|exactly|unless)|false (if|when|only|unless)|present|absent|sent|set to|supports|echoes|this|these|optimize|return only|see)\b`)

// markdownLeft returns Markdown emphasis or a Markdown link left in a doc
// comment's text outside code spans, or "".
func markdownLeft(text string) string {
	for i, part := range strings.Split(text, "`") {
		if i%2 == 1 {
			continue
		}
		if m := markdownMarkup.FindString(part); m != "" {
			return m
		}
	}
	return ""
}

var markdownMarkup = regexp.MustCompile(`\*\*[^*\s][^*]*\*\*|\[[^\]\n]+\]\(https?://[^)]+\)`)

// declDoc is the doc comment of an exported declaration.
type declDoc struct {
	name   string
	doc    *ast.CommentGroup
	isType bool
}

// exportedDocs lists the doc comments of a file's exported declarations:
// types, functions and methods, constants and variables, struct fields.
func exportedDocs(f *ast.File) []declDoc {
	var out []declDoc
	add := func(name *ast.Ident, doc *ast.CommentGroup, isType bool) {
		if name.IsExported() && doc != nil {
			out = append(out, declDoc{name.Name, doc, isType})
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(d.Name, d.Doc, false)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					add(s.Name, doc, true)
					if st, ok := s.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							for _, n := range fl.Names {
								add(n, fl.Doc, false)
							}
						}
					}
				case *ast.ValueSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					for _, n := range s.Names {
						add(n, doc, false)
					}
				}
			}
		}
	}
	return out
}

// firstSentence is the summary go doc shows: the first sentence of the
// first paragraph, as go/doc/comment reads it.
func firstSentence(text string) string {
	var p comment.Parser
	for _, b := range p.Parse(text).Content {
		if para, ok := b.(*comment.Paragraph); ok {
			var pr comment.Printer
			s := strings.Join(strings.Fields(string(pr.Text(&comment.Doc{Content: []comment.Block{para}}))), " ")
			if i := strings.Index(s, ". "); i >= 0 {
				s = s[:i+1]
			}
			return s
		}
	}
	return ""
}

// beginsWithName is staticcheck's rule (ST1020-ST1022): a comment begins
// with the name and a space, or with an article and the name.
func beginsWithName(text, name string) bool {
	for _, a := range []string{"A ", "An ", "The "} {
		if rest, ok := strings.CutPrefix(text, a); ok {
			text = rest
			break
		}
	}
	return strings.HasPrefix(text, name+" ")
}

// restatesTitle reports a summary made of a type's title: its words, less
// the name and filler, are all words of the title, and it does not come
// from the description ("Product is the "Product" schema.").
func restatesTitle(first string, ty *ir.Type) bool {
	if first == "" || ty.Title == "" {
		return false
	}
	if d := firstSentence(ty.Description); d != "" && sameWords(d, first) {
		return false
	}
	return sameWords(first, ty.Title+" "+ty.Name+" is the a an schema")
}

// sameWords reports whether every word of a is a word of b.
func sameWords(a, b string) bool {
	have := map[string]bool{}
	for _, w := range naming.Words(b) {
		have[strings.ToLower(w)] = true
	}
	for _, w := range naming.Words(a) {
		if !have[strings.ToLower(w)] {
			return false
		}
	}
	return true
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
