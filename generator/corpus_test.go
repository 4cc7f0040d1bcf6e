package generator

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

func openCorpus(t testing.TB, source string) *spec.Tree {
	t.Helper()
	skipCorpusInShort(t)
	tree, err := spec.Open(testspec.Path(t, filepath.FromSlash(source)))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// skipCorpusInShort skips a test that generates published versions whole
// under -short: make test-race runs the module that way, and the generator
// starts no goroutines for the race detector to watch, while it makes
// generating a version several times slower. make test runs them all.
func skipCorpusInShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("generates published versions whole: run without -short (make test)")
	}
}

type budget struct {
	Fallbacks  int `json:"fallbacks"`
	Unexpected int `json:"unexpected"`
}

// TestCorpus generates every published version into one temporary module,
// holds each to its fallback budget, has go build and go vet accept it, and
// holds each built package's Spec() to its manifest.
func TestCorpus(t *testing.T) {
	skipCorpusInShort(t)
	testspec.Dir(t)
	var budgets map[string]json.RawMessage
	data, err := os.ReadFile(filepath.Join("testdata", "fallback-budget.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &budgets); err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	writeModule(t, mod)
	manifests := map[string]*registry.Manifest{}
	var withManifest []string
	for _, v := range testspec.Versions {
		tree := openCorpus(t, v.Source)
		pkg := "v" + strings.NewReplacer(".", "_", "-", "_").Replace(v.Version)
		if m := loadManifest(t, tree); m != nil {
			manifests[pkg] = withSchemaKeyRequirement(t, tree, m)
			withManifest = append(withManifest, pkg)
		}
		start := time.Now()
		res, err := Generate(Options{Tree: tree, Package: pkg, SpecName: "AdCP " + v.Version, Source: v.Version})
		if err != nil {
			t.Fatalf("%s: %v", v.Version, err)
		}
		t.Logf("%s: %d types, %d files, %d fallbacks (%d unexpected) in %v", v.Version, res.Types, len(res.Files),
			len(res.Fallbacks), res.Unexpected(), time.Since(start).Round(time.Millisecond))
		var b budget
		if err := json.Unmarshal(budgets[v.Version], &b); err != nil {
			t.Fatalf("%s: no budget: %v", v.Version, err)
		}
		if len(res.Fallbacks) > b.Fallbacks || res.Unexpected() > b.Unexpected {
			for _, f := range res.Fallbacks {
				t.Logf("  %s: %s (leaf %v)", f.Loc, f.Reason, f.Leaf)
			}
			t.Errorf("%s: %d fallbacks (%d unexpected), budget %d (%d)", v.Version, len(res.Fallbacks), res.Unexpected(), b.Fallbacks, b.Unexpected)
		} else if len(res.Fallbacks) < b.Fallbacks || res.Unexpected() < b.Unexpected {
			t.Logf("%s: fewer fallbacks than the budget: lower testdata/fallback-budget.json", v.Version)
		}
		if err := WriteDir(filepath.Join(mod, pkg), res.Files); err != nil {
			t.Fatal(err)
		}
	}
	writeSpecDump(t, mod, withManifest)
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "./..."}, {"vet", "./..."}} {
		start := time.Now()
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("go %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Second))
	}
	checkSpecDumps(t, mod, manifests)
}

// writeModule makes dir a module that uses this checkout of adcpgen.
func writeModule(t *testing.T, dir string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/corpus\n\ngo 1.26\n\nrequire github.com/adcpgen/adcpgen v0.0.0\n\nreplace github.com/adcpgen/adcpgen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shuffledFS lists directories in a random order (violating ReadDirFS's
// sorted contract on purpose) so the test sees whether anything depends on
// the order files are found in.
type shuffledFS struct {
	fs.FS
	rng *rand.Rand
}

func (s shuffledFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(s.FS, name)
	s.rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	return entries, err
}

func TestNamesIndependentOfFileOrder(t *testing.T) {
	skipCorpusInShort(t)
	for _, source := range []string{"schemas/3.1.19", "schemas/3.2.0-beta.3", "schemas/3.2.0-beta.5"} {
		t.Run(filepath.Base(source), func(t *testing.T) {
			dir := testspec.Path(t, filepath.FromSlash(source))
			gen := func(fsys fs.FS) []File {
				tree, err := spec.OpenFS(fsys, source, spec.KindDir)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Generate(Options{Tree: tree, Package: "adcp", Source: source})
				if err != nil {
					t.Fatal(err)
				}
				return res.Files
			}
			plain := gen(os.DirFS(dir))
			shuffled := gen(shuffledFS{FS: os.DirFS(dir), rng: rand.New(rand.NewSource(time.Now().UnixNano()))})
			if len(plain) != len(shuffled) {
				t.Fatalf("%d files vs %d", len(plain), len(shuffled))
			}
			for i := range plain {
				if plain[i].Name != shuffled[i].Name || !bytes.Equal(plain[i].Data, shuffled[i].Data) {
					t.Fatalf("%s differs when files are read in another order", plain[i].Name)
				}
			}
		})
	}
}

// TestDeterministic generates the embedded default twice and checks the
// output is identical and free of absolute paths and timestamps.
func TestDeterministic(t *testing.T) {
	tree := embeddedTree(t)
	opts := Options{Tree: tree, Package: "adcp", SpecName: "core", Source: "embedded core schemas", Command: "go run ./cmd/adcpgen generate --out . --package adcp"}
	a, err := Generate(opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(opts)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	year := time.Now().Format("2006-")
	for i := range a.Files {
		if !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
			t.Fatalf("%s differs between runs", a.Files[i].Name)
		}
		text := string(a.Files[i].Data)
		if !strings.HasPrefix(text, "// Code generated by adcpgen. DO NOT EDIT.\n") {
			t.Fatalf("%s lacks the generated-code header", a.Files[i].Name)
		}
		for _, bad := range []string{wd, os.TempDir() + "/", year} {
			if strings.Contains(text, bad) {
				t.Fatalf("%s contains %q", a.Files[i].Name, bad)
			}
		}
		if strings.Contains(text, "/*") && !strings.Contains(text, "\"/*\"") {
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "/*") {
					t.Fatalf("%s has a block comment: %s", a.Files[i].Name, line)
				}
			}
		}
	}
}

func embeddedTree(t testing.TB) *spec.Tree {
	t.Helper()
	tree, err := spec.OpenFS(os.DirFS(filepath.Join("..", "schemas")), "embedded", spec.KindEmbedded)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// BenchmarkGenerate times whole-tree generation in memory (load, lower,
// name, emit, format).
func BenchmarkGenerate(b *testing.B) {
	benchGenerate(b, func(b *testing.B, files []File, _ int) {})
}

// BenchmarkRegenerate adds writing into an output directory that holds the
// previous run's files (the go generate case): unchanged files are skipped.
func BenchmarkRegenerate(b *testing.B) {
	dir := b.TempDir()
	benchGenerate(b, func(b *testing.B, files []File, _ int) {
		if err := WriteDir(dir, files); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkGenerateFresh writes into a new, empty directory every time: on
// top of generation it measures creating one file per schema document.
func BenchmarkGenerateFresh(b *testing.B) {
	root := b.TempDir()
	benchGenerate(b, func(b *testing.B, files []File, i int) {
		if err := WriteDir(filepath.Join(root, strconv.Itoa(i)), files); err != nil {
			b.Fatal(err)
		}
	})
}

func benchGenerate(b *testing.B, after func(*testing.B, []File, int)) {
	for _, v := range testspec.Versions {
		if v.Version == "2.5.3" || v.Version == "3.0.0" {
			continue
		}
		b.Run(v.Version, func(b *testing.B) {
			tree := openCorpus(b, v.Source)
			i := 0
			for b.Loop() {
				res, err := Generate(Options{Tree: tree, Package: "adcp", Source: v.Version})
				if err != nil {
					b.Fatal(err)
				}
				after(b, res.Files, i)
				i++
			}
		})
	}
}
