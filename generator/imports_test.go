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

// Generated code may import only the runtime (wire, registry) and the
// standard library; the runtime must never import the generator.
func TestImportRules(t *testing.T) {
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
			if !stdlib && path != "github.com/adcpgen/adcpgen/runtime/wire" && path != "github.com/adcpgen/adcpgen/runtime/registry" {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/adcpgen/adcpgen/runtime/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "github.com/adcpgen/adcpgen/generator") {
			t.Errorf("the runtime depends on %s", line)
		}
	}
}
