package generator

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenCases are the schema trees under testdata/schemas, one per group of
// shapes; each generates the package testdata/golden/<case>, which the
// decode tests import, so the goldens must compile.
var goldenCases = []string{"foundation", "unions", "maps", "refs", "manifest", "nullable"}

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
			want, err := filepath.Glob(filepath.Join(dir, "*.go"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Files {
				got = append(got, filepath.Join(dir, f.Name))
				old, err := os.ReadFile(filepath.Join(dir, f.Name))
				if err != nil {
					t.Errorf("%s: missing golden (run go test ./generator -run TestGolden -update): %v", f.Name, err)
					continue
				}
				if !bytes.Equal(old, f.Data) {
					t.Errorf("%s differs from its golden; run go test ./generator -run TestGolden -update and review the diff", f.Name)
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if len(got) != len(want) {
				t.Errorf("golden files %v, generated %v", want, got)
			}
		})
	}
}
