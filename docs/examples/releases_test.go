package examples

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/roundtrip"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// releases are the published releases the snippets run on: every one in
// the spec directory but 2.5.3, whose get_products has no buying_mode (the
// README's buyer asks for a brief).
var releases = []struct{ version, source string }{
	{"3.0.0", "protocol/3.0.0.tgz"},
	{"3.0.26", "protocol/3.0.26.tgz"},
	{"3.1.19", "schemas/3.1.19"},
	{"3.2.0-beta.3", "schemas/3.2.0-beta.3"},
	{"3.2.0-beta.5", "schemas/3.2.0-beta.5"},
}

// checks is how many "ok" lines testdata/releases/main.go.txt prints.
const checks = 7

// TestExamplesOnEveryRelease compiles this package (the README's and
// docs/' snippets) against the package adcpgen generates from each
// published release, get_products' schemas and what they refer to, and
// runs them: the README's buyer calls the README's seller and
// docs/seller.md's seller, which validates requests against the release's
// schemas; docs/signing.md's buyer signs for its seller with the release's
// profile; extraction, validation and the embedded tree too.
// The seller's catalogue (testdata/releases/catalog.json) is one
// get_products response valid in every release.
func TestExamplesOnEveryRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and builds a package per release")
	}
	dir := testspec.Dir(t)
	root, err := roundtrip.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	catalog, err := filepath.Abs(filepath.Join("testdata", "releases", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range releases {
		t.Run(r.version, func(t *testing.T) {
			source := filepath.Join(dir, filepath.FromSlash(r.source))
			mod := t.TempDir()
			writeReleaseModule(t, mod, root, source)
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
			defer cancel()
			bin, err := roundtrip.Build(ctx, mod)
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.CommandContext(ctx, bin, "-tree", source, "-catalog", catalog).CombinedOutput()
			t.Logf("%s", out)
			if err != nil {
				t.Fatalf("the snippets failed on %s: %v", r.version, err)
			}
			if n := bytes.Count(append([]byte("\n"), out...), []byte("\nok ")); n != checks {
				t.Fatalf("%d checks passed, want %d", n, checks)
			}
		})
	}
}

// writeReleaseModule writes a module holding the release's package (adcp),
// this package's snippets importing it (examples) and the program running
// them.
func writeReleaseModule(t *testing.T, mod, root, source string) {
	t.Helper()
	tree, err := spec.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	res, err := generator.Generate(generator.Options{Tree: tree, Package: "adcp", Source: filepath.Base(source),
		Include: []string{"media-buy/get-products-request.json", "media-buy/get-products-response.json",
			"protocol/get-adcp-capabilities-request.json", "protocol/get-adcp-capabilities-response.json"},
		Command: "go test ./docs/examples (generated for tests; never committed)"})
	if err != nil {
		t.Fatal(err)
	}
	if err := generator.WriteDir(filepath.Join(mod, "adcp"), res.Files); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	const generated = `adcp "github.com/adcpgen/adcpgen/generated/adcpt"`
	if err := os.MkdirAll(filepath.Join(mod, "examples"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.ReplaceAll(data, []byte(generated), []byte(`adcp "`+roundtrip.ModulePath+`/adcp"`))
		file, err := parser.ParseFile(token.NewFileSet(), f, data, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if strings.Contains(imp.Path.Value, "/internal/") {
				t.Fatalf("%s imports %s, which a user cannot", f, imp.Path.Value)
			}
		}
		if err := os.WriteFile(filepath.Join(mod, "examples", f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	program, err := os.ReadFile(filepath.Join("testdata", "releases", "main.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rootMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	_, requires, _ := strings.Cut(string(rootMod), "\nrequire")
	gomod := "module " + roundtrip.ModulePath + "\n\ngo 1.26.0\n\nrequire github.com/adcpgen/adcpgen v0.0.0\n\nrequire" + requires +
		"\nreplace github.com/adcpgen/adcpgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": program} {
		if err := os.WriteFile(filepath.Join(mod, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
