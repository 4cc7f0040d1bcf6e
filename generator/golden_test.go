package generator

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/internal/goldenfiles"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenCases are the schema trees under testdata/schemas, one per group of
// shapes; each generates the package testdata/golden/<case>, which the
// decode tests import, so the goldens must compile.
var goldenCases = []string{"foundation", "unions", "maps", "refs", "manifest", "nullable", "collisions"}

func generateCase(t *testing.T, name string) *Result {
	t.Helper()
	tree, err := spec.Open(filepath.Join("testdata", "schemas", name))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(Options{Tree: tree, Package: name, SpecName: "the " + name + " test schemas",
		Source: "testdata/schemas/" + name, Command: "go test ./generator -run TestGolden -update"})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// fileMap is files by name, as goldenfiles.Compare takes them.
func fileMap(files []File) map[string][]byte {
	m := make(map[string][]byte, len(files))
	for _, f := range files {
		m[f.Name] = f.Data
	}
	return m
}

func TestGolden(t *testing.T) {
	for _, name := range goldenCases {
		t.Run(name, func(t *testing.T) {
			res := generateCase(t, name)
			dir := filepath.Join("testdata", "golden", name)
			if *update {
				if err := WriteDir(dir, res.Files); err != nil {
					t.Fatal(err)
				}
				return
			}
			goldenfiles.Compare(t, dir, fileMap(res.Files), "go test ./generator -run TestGolden -update")
		})
	}
}
