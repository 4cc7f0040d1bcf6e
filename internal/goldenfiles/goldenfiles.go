// Package goldenfiles checks committed generated code against a fresh
// generation: the golden packages of the generator's tests and the test
// packages other tests import (internal/buyertest, internal/sellertest).
package goldenfiles

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Compare reports as test errors every difference between files (names
// relative to dir, slash-separated, and contents: what a generator run
// writes) and the .go files under dir: a file missing or stale, and a .go
// file no longer generated. refresh is the command that rewrites dir.
func Compare(t testing.TB, dir string, files map[string][]byte, refresh string) {
	t.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		old, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: missing (run %s): %v", name, refresh, err)
			continue
		}
		if !bytes.Equal(old, files[name]) {
			t.Errorf("%s differs from a fresh generation: run %s and review the diff", name, refresh)
		}
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".go" {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if _, ok := files[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s is no longer generated (run %s)", filepath.ToSlash(rel), refresh)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
