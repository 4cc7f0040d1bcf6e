package generator

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

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
			var got, want []string
			for _, f := range res.Files {
				path := filepath.Join(dir, filepath.FromSlash(f.Name))
				got = append(got, path)
				old, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%s: missing golden (run go test ./generator -run TestGoldenSplit -update): %v", f.Name, err)
					continue
				}
				if !bytes.Equal(old, f.Data) {
					t.Errorf("%s differs from its golden; run go test ./generator -run TestGoldenSplit -update and review the diff", f.Name)
				}
			}
			err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && filepath.Ext(path) == ".go" {
					want = append(want, path)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(got)
			sort.Strings(want)
			if len(got) != len(want) {
				t.Errorf("golden files %v, generated %v", want, got)
			}
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
