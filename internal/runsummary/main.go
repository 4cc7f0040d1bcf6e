// Command runsummary prints what "make run" generated and what to try
// next (generate itself says how many types): the package's files, its
// error codes and its tool table, read from the generated source (the package itself is not built).
//
//	go run ./internal/runsummary out/adcp
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: runsummary DIR")
		os.Exit(2)
	}
	if err := summarize(os.Stdout, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "runsummary:", err)
		os.Exit(1)
	}
}

// summary is what one generated package holds.
type summary struct {
	pkg, version string
	files        []string
	codes        int
	tools        []string
}

func summarize(w io.Writer, dir string) error {
	s, err := read(dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nGenerated package %s (spec %s) in %s: %d files, %d error codes, %d tools.\n",
		s.pkg, s.version, dir, len(s.files), s.codes, len(s.tools))
	files := s.files
	if len(files) > 8 {
		files = append(files[:8:8], fmt.Sprintf("... and %d more", len(s.files)-8))
	}
	fmt.Fprintf(w, "  files: %s\n", strings.Join(files, " "))
	if len(s.tools) == 0 {
		fmt.Fprintln(w, "  tools: none (adcpgen's core schemas declare none; a spec version does: see below)")
	} else {
		fmt.Fprintf(w, "  tools:%s\n", wrap(s.tools, 100))
	}
	fmt.Fprintf(w, "\nTry next:\n")
	for _, c := range [][2]string{
		{"less " + dir + "/doc.go", "what was generated from what, and how to regenerate it"},
		{"./bin/adcpgen help", "the commands (adcpgen COMMAND --help for each)"},
		{"make run SPEC=../shared/adcp/protocol/3.0.26.tgz", "a whole spec version, with its tool table"},
		{"go doc ./runtime", "the runtime's map: the buyer, the seller, what they share"},
		{"make test", "every test"},
		{"make example-buyer", "a typed buyer against the example seller, over MCP and A2A"},
	} {
		fmt.Fprintf(w, "  %-50s %s\n", c[0], c[1])
	}
	return nil
}

func read(dir string) (*summary, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	s := &summary{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, name)
		s.pkg = f.Name.Name
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				if len(n.Names) == 1 && n.Names[0].Name == "SpecVersion" && len(n.Values) == 1 {
					if lit, ok := n.Values[0].(*ast.BasicLit); ok {
						s.version, _ = strconv.Unquote(lit.Value)
					}
				}
			case *ast.KeyValueExpr:
				key, ok := n.Key.(*ast.Ident)
				if !ok {
					return true
				}
				cl, ok := n.Value.(*ast.CompositeLit)
				if !ok {
					return true
				}
				switch key.Name {
				case "Codes":
					s.codes += len(cl.Elts)
				case "Tools":
					for _, e := range cl.Elts {
						if name := field(e, "Name"); name != "" {
							s.tools = append(s.tools, name)
						}
					}
				}
			}
			return true
		})
	}
	sort.Strings(s.tools)
	if len(s.files) == 0 {
		return nil, fmt.Errorf("%s: no Go files", dir)
	}
	return s, nil
}

// wrap joins words with ", " in lines of at most width characters, each
// line indented.
func wrap(words []string, width int) string {
	var b strings.Builder
	line := 0
	for i, word := range words {
		if i > 0 {
			b.WriteString(",")
			line++
		}
		if line == 0 || line+1+len(word) > width {
			b.WriteString("\n    ")
			line = 4
		} else {
			b.WriteString(" ")
			line++
		}
		b.WriteString(word)
		line += len(word)
	}
	return b.String()
}

// field is the string value of member key in a composite literal.
func field(e ast.Expr, key string) string {
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return ""
	}
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if id, isID := kv.Key.(*ast.Ident); ok && isID && id.Name == key {
			if lit, ok := kv.Value.(*ast.BasicLit); ok {
				v, _ := strconv.Unquote(lit.Value)
				return v
			}
		}
	}
	return ""
}
