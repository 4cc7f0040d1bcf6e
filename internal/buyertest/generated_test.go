package buyertest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

var update = flag.Bool("update", false, "rewrite tinyadcp from testdata/schemas")

// TestGenerated checks that tinyadcp is what adcpgen generates from
// testdata/schemas today.
func TestGenerated(t *testing.T) {
	tree, err := spec.Open(filepath.Join("testdata", "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := generator.Generate(generator.Options{Tree: tree, Package: "tinyadcp", SpecName: "the buyer test schemas",
		Source: "internal/buyertest/testdata/schemas", Command: "go test ./internal/buyertest -run TestGenerated -update"})
	if err != nil {
		t.Fatal(err)
	}
	dir := "tinyadcp"
	if *update {
		if err := generator.WriteDir(dir, res.Files); err != nil {
			t.Fatal(err)
		}
		return
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Name)
		old, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Errorf("%s: missing (run go test ./internal/buyertest -run TestGenerated -update): %v", f.Name, err)
			continue
		}
		if !bytes.Equal(old, f.Data) {
			t.Errorf("%s is stale: run go test ./internal/buyertest -run TestGenerated -update and review the diff", f.Name)
		}
	}
	have, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range have {
		have[i] = filepath.Base(have[i])
	}
	sort.Strings(got)
	sort.Strings(have)
	if len(got) != len(have) {
		t.Errorf("tinyadcp has %v, a fresh run writes %v", have, got)
	}
}
