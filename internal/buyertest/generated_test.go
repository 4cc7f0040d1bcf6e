package buyertest

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/goldenfiles"
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
	files := map[string][]byte{}
	for _, f := range res.Files {
		files[f.Name] = f.Data
	}
	goldenfiles.Compare(t, dir, files, "go test ./internal/buyertest -run TestGenerated -update")
}
