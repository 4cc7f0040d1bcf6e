package sellertest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// TestGoldenUpToDate regenerates adcpt from schemas/ and compares it with
// the committed files.
func TestGoldenUpToDate(t *testing.T) {
	out := t.TempDir()
	if err := generateInto(filepath.Join("schemas"), out); err != nil {
		t.Fatal(err)
	}
	got, _ := filepath.Glob(filepath.Join(out, "*.go"))
	want, _ := filepath.Glob(filepath.Join("adcpt", "*.go"))
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("generated %d files, %d committed (regenerate: see the package doc)", len(got), len(want))
	}
	for _, g := range got {
		a, _ := os.ReadFile(g)
		b, err := os.ReadFile(filepath.Join("adcpt", filepath.Base(g)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("adcpt/%s differs from a fresh generation (regenerate: see the package doc)", filepath.Base(g))
		}
	}
}

// generateInto generates adcpt from dir into out, as the command in the
// package doc does.
func generateInto(dir, out string) error {
	tree, err := spec.Open(dir)
	if err != nil {
		return err
	}
	res, err := generator.Generate(generator.Options{
		Tree: tree, Package: "adcpt",
		SpecName: "AdCP " + tree.Version, Source: "internal/sellertest/schemas",
		Command: "go run github.com/adcpgen/adcpgen/cmd/adcpgen generate --spec internal/sellertest/schemas --out . --package adcpt",
	})
	if err != nil {
		return err
	}
	return generator.WriteDir(out, res.Files)
}
