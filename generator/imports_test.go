package generator

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Generated code may import only the runtime (wire, wireimpl, registry,
// task) and the standard library; the runtime must never import the
// generator.
func TestImportRules(t *testing.T) {
	generatedMayImport := map[string]bool{
		"github.com/adcpgen/adcpgen/runtime/wire":     true,
		"github.com/adcpgen/adcpgen/runtime/wireimpl": true,
		"github.com/adcpgen/adcpgen/runtime/registry": true,
		"github.com/adcpgen/adcpgen/runtime/task":     true,
	}
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join("..", "generated", "adcp", "*.go"))
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("only %d generated files found", len(files))
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			stdlib := !strings.Contains(strings.Split(path, "/")[0], ".")
			if !stdlib && !generatedMayImport[path] {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
	// What generated code imports stays small: task depends on the
	// standard library alone, so a program using a generated package's
	// types does not link the buyer's or the seller's machinery.
	out, err := exec.Command("go", "list", "-deps", "github.com/adcpgen/adcpgen/runtime/task").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Fields(string(out)) {
		if strings.Contains(strings.Split(line, "/")[0], ".") && line != "github.com/adcpgen/adcpgen/runtime/task" {
			t.Errorf("runtime/task depends on %s", line)
		}
	}
	// The runtime's non-test files never reach the generator or a
	// generated package: it takes a spec value wherever it needs one.
	out, err = exec.Command("go", "list", "-deps", "github.com/adcpgen/adcpgen/runtime/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Split(string(out), "\n")
	if len(deps) < 10 {
		t.Fatalf("go list found only %d packages", len(deps))
	}
	for _, line := range deps {
		if strings.HasPrefix(line, "github.com/adcpgen/adcpgen/generator") || strings.HasPrefix(line, "github.com/adcpgen/adcpgen/generated") {
			t.Errorf("the runtime depends on %s", line)
		}
	}
	// runtime/wireimpl is generated code's alone: of the packages written
	// by hand, only runtime/wire, which decodes what it describes, and the
	// generator, which writes against it, import it; its descriptors
	// (runtime/internal/wiredesc) are named by wire and wireimpl alone.
	out, err = exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/adcpgen/adcpgen/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const impl, desc = "github.com/adcpgen/adcpgen/runtime/wireimpl", "github.com/adcpgen/adcpgen/runtime/internal/wiredesc"
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		generated := strings.HasPrefix(pkg, "github.com/adcpgen/adcpgen/generated/") ||
			strings.Contains(pkg, "/testdata/golden") || strings.HasSuffix(pkg, "/tinyadcp") || strings.HasSuffix(pkg, "/adcpt")
		for _, imp := range strings.Fields(imports) {
			switch {
			case imp == impl && !generated && pkg != "github.com/adcpgen/adcpgen/runtime/wire" &&
				!strings.HasPrefix(pkg, "github.com/adcpgen/adcpgen/generator/"):
				t.Errorf("%s imports %s, which only generated code may", pkg, impl)
			case imp == desc && pkg != impl && pkg != "github.com/adcpgen/adcpgen/runtime/wire":
				t.Errorf("%s imports %s", pkg, desc)
			}
		}
		checked++
	}
	if checked < 50 {
		t.Fatalf("go list found only %d packages", checked)
	}
}
