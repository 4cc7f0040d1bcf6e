package generator

import (
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/internal/goldenfiles"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// TestGoldenSplit generates every golden case as a package split in two
// (see Options.ImportPath), whatever its size, into
// testdata/golden_split/<case>: the package and its internal/types. The
// goldentest package decodes the same documents with them and with the
// unsplit goldens and requires the same results.
func TestGoldenSplit(t *testing.T) {
	for _, name := range goldenCases {
		t.Run(name, func(t *testing.T) {
			tree, err := spec.Open(filepath.Join("testdata", "schemas", name))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Generate(Options{Tree: tree, Package: name, SpecName: "the " + name + " test schemas",
				Source: "testdata/schemas/" + name, Command: "go test ./generator -run TestGoldenSplit -update",
				ImportPath: "github.com/adcpgen/adcpgen/generator/testdata/golden_split/" + name, splitAt: 1})
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join("testdata", "golden_split", name)
			if *update {
				if err := WriteDir(dir, res.Files); err != nil {
					t.Fatal(err)
				}
				return
			}
			goldenfiles.Compare(t, dir, fileMap(res.Files), "go test ./generator -run TestGoldenSplit -update")
			base := 0
			for _, f := range res.Files {
				if filepath.Dir(filepath.FromSlash(f.Name)) == filepath.FromSlash("internal/types") {
					base++
				}
			}
			if base < 3 {
				t.Errorf("only %d files in internal/types: the case is not split", base)
			}
		})
	}
}
