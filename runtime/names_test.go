package runtime

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Names read with their package, as users write them: mcpserver.Options,
// a2aserver.NewHandler, pgstore.Store (Effective Go: "called Reader, not
// BufReader, because users see it as bufio.Reader"). Two rules follow.
//
// No stutter: a name does not repeat its package's name or the protocol
// the package is about (mcpserver.MCPOptions, a2aserver.NewA2AHandler),
// TestNamesDoNotStutter.
//
// One meaning per name: outside the role words below, a name is exported
// by one runtime package only, so a name met in a program says which
// package's thing it is; the seller's packages and the buyer's are
// imported together, and a repeated word there would mean two things in
// one file. TestExportedNamesAreUnique.
//
// Options style, one rule for the whole runtime: a constructor of a server,
// handler, store or other long-lived value takes a struct named Options
// (XOptions when a package has several constructors), passed by value,
// whose zero value is useful (defaults documented on each field). Functional
// options remain in two places only, both on the buyer's side where most
// calls pass none and the call site reads as a sentence: buyer.New's
// ClientOption and buyer.Call's CallOption (per call, variadic), and
// extract.New's Option, which buyer.WithExtractor builds on.

// roleNames may repeat: each names the package's own thing of a kind every
// package may have, always read qualified.
//   - New: the package's constructor, by Go convention (extract.New).
//   - Options: the settings its constructor takes (see the rule above).
var roleNames = map[string]bool{"New": true, "Options": true}

// stillShared lists the other names that repeat, each in exactly these
// packages, where each is the plainest word for its thing, always read
// qualified, and the pair names two ends or two views of the same thing:
//   - Call: buyer.Call makes a tool call (a function), seller.Call is the
//     call a seller received (a type, paired with seller.Answer). Request,
//     the other word for it, would read like net/http's, whose Context()
//     means the Go context and not the AdCP context object.
//   - Request, Response: the two sides of a tool call, where a package
//     tells them apart (signing.Request is the request profile,
//     validate.Request and validate.Response the direction a payload
//     travels); rawrpc.Response is that response as a JSON-RPC message.
//   - Result: task.Result is a tool's typed outcome, which handlers return
//     and buyer.Call hands back; extract.Result is what extraction found in
//     one envelope (Form, Failure). Both appear in README examples.
//   - Store: pgstore.Store is a sellerstore.Store, the PostgreSQL one
//     (pgstore.New returns it), read qualified like bytes.Buffer.
//   - Tool: task.Tool is the typed handle generated packages export
//     (adcp.Tools.GetProducts), registry.Tool the spec's entry for a tool;
//     renaming either changes every generated package.
//
// The test fails when an entry no longer matches, so the list only shrinks.
var stillShared = map[string][]string{
	"Call":     {"buyer", "seller"},
	"Request":  {"signing", "validate"},
	"Response": {"rawrpc", "validate"},
	"Result":   {"extract", "task"},
	"Store":    {"sellerstore", "sellerstore/pgstore"},
	"Tool":     {"registry", "task"},
}

// No exported package-level name (type, function, variable, constant)
// appears in two runtime packages, role names and stillShared aside.
func TestExportedNamesAreUnique(t *testing.T) {
	byName := map[string][]string{}
	packages := map[string]bool{}
	for _, pf := range publicFiles(t, parser.SkipObjectResolution) {
		f, pkg := pf.f, pf.pkg
		packages[pkg] = true
		for _, name := range exportedNames(f) {
			if !slices.Contains(byName[name], pkg) {
				byName[name] = append(byName[name], pkg)
			}
		}
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
		case len(pkgs) > 1 && !listed && !roleNames[name]:
			t.Errorf("%s is exported by %d runtime packages (%s): rename all but one", name, len(pkgs), strings.Join(pkgs, ", "))
		}
	}
	for name := range stillShared {
		if _, ok := byName[name]; !ok {
			t.Errorf("stillShared lists %s, which no runtime package exports any more", name)
		}
	}
}

// stutterPrefixes are the words a package's names must not start with: its
// own name, and the protocol an SDK package is about.
func stutterPrefixes(pkg string) []string {
	base := pkg[strings.LastIndex(pkg, "/")+1:]
	out := []string{base}
	for _, proto := range []string{"mcp", "a2a"} {
		if strings.HasPrefix(base, proto) {
			out = append(out, proto)
		}
	}
	return out
}

// stutters reports whether name repeats prefix as a word of its own
// (golint's rule): extract.Extractor and proposal.Proposal read well,
// mcpserver.MCPOptions does not. New and the other verbs come first, so
// NewMCPServer stutters too.
func stutters(name, prefix string) bool {
	for _, verb := range []string{"", "New"} {
		rest, ok := strings.CutPrefix(name, verb)
		if !ok || len(rest) <= len(prefix) || !strings.EqualFold(rest[:len(prefix)], prefix) {
			continue
		}
		if c := rest[len(prefix)]; c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// knownStutters are being renamed, one commit per package; the list only
// shrinks.
var knownStutters = map[string]bool{}

// No exported name repeats its package's name or protocol: users read it
// qualified (mcpserver.Options, a2aserver.NewHandler).
func TestNamesDoNotStutter(t *testing.T) {
	checked := 0
	for _, pf := range publicFiles(t, parser.SkipObjectResolution) {
		path, pkg := pf.path, pf.pkg
		for _, name := range exportedNames(pf.f) {
			checked++
			for _, prefix := range stutterPrefixes(pkg) {
				if stutters(name, prefix) && !knownStutters[pkg+"."+name] {
					t.Errorf("%s: %s.%s repeats %q: name it for how it reads qualified", path, pkg[strings.LastIndex(pkg, "/")+1:], name, prefix)
				}
			}
		}
	}
	if checked < 300 {
		t.Fatalf("only %d exported names checked: the walk missed some", checked)
	}
}

func TestStutters(t *testing.T) {
	for _, tc := range []struct {
		name, prefix string
		want         bool
	}{
		{"MCPOptions", "mcp", true},
		{"NewA2AHandler", "a2a", true},
		{"NewMCPServer", "mcp", true},
		{"WebhookSender", "webhook", true},
		{"Extractor", "extract", false},
		{"Proposal", "proposal", false},
		{"Options", "mcp", false},
		{"NewHandler", "a2a", false},
		{"Mcp", "mcp", false},
	} {
		if got := stutters(tc.name, tc.prefix); got != tc.want {
			t.Errorf("stutters(%q, %q) = %v, want %v", tc.name, tc.prefix, got, tc.want)
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

// maxExportedNames is how many names a runtime package lists at most in
// go doc's summary (go doc -short): its exported types, its functions but
// the constructors go doc lists under their type, its groups of constants
// and variables but those of a type. More is two packages' worth for a
// reader; split it along the lines its users see.
const maxExportedNames = 45

// overBudget are the packages over maxExportedNames, each with the count
// it may not exceed while it is being split; the list only shrinks.
var overBudget = map[string]int{}

// No runtime package lists more than maxExportedNames names in go doc.
func TestExportedNamesPerPackage(t *testing.T) {
	byPkg := map[string][]*ast.File{}
	fset := token.NewFileSet()
	for _, pf := range publicFiles(t, parser.ParseComments) {
		f, err := parser.ParseFile(fset, pf.path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		byPkg[pf.pkg] = append(byPkg[pf.pkg], f)
	}
	paths := make([]string, 0, len(byPkg))
	for p := range byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		d, err := doc.NewFromFiles(fset, byPkg[p], "github.com/adcpgen/adcpgen/runtime/"+p)
		if err != nil {
			t.Fatal(err)
		}
		n := len(d.Consts) + len(d.Vars) + len(d.Funcs) + len(d.Types)
		limit, over := overBudget[p]
		switch {
		case over && n <= maxExportedNames:
			t.Errorf("runtime/%s lists %d names in go doc: take it off overBudget", p, n)
		case !over && n > maxExportedNames:
			t.Errorf("runtime/%s lists %d names in go doc (at most %d): split it along the lines its users see", p, n, maxExportedNames)
		case over && n > limit:
			t.Errorf("runtime/%s lists %d names in go doc, over its %d while it is being split", p, n, limit)
		}
		if testing.Verbose() {
			t.Logf("runtime/%s: %d", p, n)
		}
	}
	if len(paths) < 30 {
		t.Fatalf("only %d packages counted: the walk missed some", len(paths))
	}
}
