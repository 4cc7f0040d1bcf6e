package sellertest

import (
	"flag"
	"testing"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/goldenfiles"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

var update = flag.Bool("update", false, "rewrite generated/adcpt from schemas/")

// TestGoldenUpToDate checks that generated/adcpt is what adcpgen
// generates from schemas/ today.
// adcptDir is where the package lives: outside internal/, so that the
// runtime's examples, which go doc shows, import only public packages.
const adcptDir = "../../generated/adcpt"

func TestGoldenUpToDate(t *testing.T) {
	tree, err := spec.Open("schemas")
	if err != nil {
		t.Fatal(err)
	}
	res, err := generator.Generate(generator.Options{
		Tree: tree, Package: "adcpt",
		SpecName: "AdCP " + tree.Version, Source: "internal/sellertest/schemas",
		Command: "go run github.com/adcpgen/adcpgen/cmd/adcpgen generate --spec internal/sellertest/schemas --out . --package adcpt",
	})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := generator.WriteDir(adcptDir, res.Files); err != nil {
			t.Fatal(err)
		}
		return
	}
	files := map[string][]byte{}
	for _, f := range res.Files {
		files[f.Name] = f.Data
	}
	goldenfiles.Compare(t, adcptDir, files, "go test ./internal/sellertest -run TestGoldenUpToDate -update")
}
