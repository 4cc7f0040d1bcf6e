package generator

import (
	"os"
	"path/filepath"
	"testing"
)

// legacySplit is a package an earlier adcpgen wrote in two halves: the
// package re-exports by alias the type internal/types declares.
func legacySplit(dir string) error {
	for name, text := range map[string]string{
		"a_gen.go":                  "package x\n\nimport types \"example.com/m/x/internal/types\"\n\n// A is a.\n//\n// Schema: core/a.json# (\"A\"), digest 0123456789ab\ntype A = types.A\n",
		"internal/types/a_gen.go":   "package types\n\n// A is a.\n//\n// Schema: core/a.json# (\"A\"), digest 0123456789ab\ntype A struct {\n\tB string `json:\"b\"`\n}\n",
		"internal/types/doc_gen.go": "// Package types declares half of the types of package x.\npackage types\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(headerLine+"\n\n"+text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// A package an earlier adcpgen split in two is read back for its names,
// and regenerating removes internal/types, directories included, leaving
// alone a file adcpgen did not write there.
func TestLegacySplit(t *testing.T) {
	dir := t.TempDir()
	if err := legacySplit(dir); err != nil {
		t.Fatal(err)
	}
	prev, err := ReadPrevious(dir)
	if err != nil || prev.Name("core/a.json") != "A" || prev.digests["core/a.json#"] != "0123456789ab" {
		t.Fatalf("ReadPrevious: %+v, %v", prev, err)
	}
	gen := File{Name: "a_gen.go", Data: []byte(headerLine + "\n\npackage x\n")}
	if err := WriteDir(dir, []File{gen}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "internal")); !os.IsNotExist(err) {
		t.Fatalf("internal/ is left after regenerating: %v", err)
	}

	if err := legacySplit(dir); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "internal", "types", "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(dir, []File{gen}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Fatalf("a file adcpgen did not write was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "internal", "types", "a_gen.go")); !os.IsNotExist(err) {
		t.Fatal("a stale generated file in internal/types was kept")
	}
}
