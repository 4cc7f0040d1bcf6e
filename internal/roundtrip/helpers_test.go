package roundtrip

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

var update = flag.Bool("update", false, "rewrite the expectation files in testdata from this run")

// harnessVersions are the versions the shared harness is built with: every
// published version (TestNullEverywhere walks them all; the three latest are
// synthesised in full, and 3.0.26 has the bundle's own examples).
var harnessVersions = []string{"2.5.3", "3.0.0", "3.0.26", "3.1.19", "3.2.0-beta.3", "3.2.0-beta.5"}

var shared struct {
	once sync.Once
	dir  string
	h    *Harness
	refs map[string][]string
	err  error
	took time.Duration
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// harness generates the spec versions into a temporary module and builds
// the harness, once per test binary.
func harness(t *testing.T) (*Harness, map[string][]string) {
	t.Helper()
	specDir := testspec.Dir(t)
	shared.once.Do(func() {
		start := time.Now()
		defer func() { shared.took = time.Since(start) }()
		root, err := ModuleRoot()
		if err != nil {
			shared.err = err
			return
		}
		if shared.dir, err = os.MkdirTemp("", "adcpgen-roundtrip-"); err != nil {
			shared.err = err
			return
		}
		var versions []Version
		for _, v := range harnessVersions {
			versions = append(versions, Version{Version: v, Source: sourceOf(specDir, v)})
		}
		if shared.err = WriteModule(shared.dir, root, versions); shared.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		bin, err := Build(ctx, shared.dir)
		if err != nil {
			shared.err = err
			return
		}
		shared.h = &Harness{Bin: bin}
		shared.refs, shared.err = shared.h.Refs(ctx)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	t.Logf("harness for %s built in %v (once per test binary)", strings.Join(harnessVersions, ", "), shared.took.Round(time.Millisecond))
	return shared.h, shared.refs
}

func sourceOf(specDir, version string) string {
	for _, tv := range testspec.Versions {
		if tv.Version == version {
			return filepath.Join(specDir, tv.Source)
		}
	}
	panic("no published version " + version)
}

// expectations is a committed list of known outcomes: what may not be
// proven (and why), by id. A run that produces an entry not listed fails;
// entries no longer produced are reported so the file can shrink
// (-update rewrites it).
type expectations map[string]map[string]string

func readExpectations(t *testing.T, file string) expectations {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		if *update {
			return expectations{}
		}
		t.Fatalf("%v (run with -update to create it)", err)
	}
	var e expectations
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return e
}

// compare checks got against the expectation file, section by section;
// with -update it writes got instead.
func compare(t *testing.T, file string, got expectations, header string) {
	t.Helper()
	if *update {
		got["_about"] = map[string]string{"what": header, "regenerate": "go test ./internal/roundtrip -update"}
		data, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", file)
		return
	}
	want := readExpectations(t, file)
	delete(want, "_about")
	sections := map[string]bool{}
	for s := range got {
		sections[s] = true
	}
	for s := range want {
		sections[s] = true
	}
	for _, s := range sortedKeys(sections) {
		g, w := got[s], want[s]
		var added, gone, changed []string
		for id, v := range g {
			wv, ok := w[id]
			switch {
			case !ok:
				added = append(added, fmt.Sprintf("%s: %s", id, v))
			case wv != v:
				changed = append(changed, fmt.Sprintf("%s:\n    got  %s\n    want %s", id, v, wv))
			}
		}
		for id := range w {
			if _, ok := g[id]; !ok {
				gone = append(gone, id)
			}
		}
		sort.Strings(added)
		sort.Strings(changed)
		sort.Strings(gone)
		for _, a := range added {
			t.Errorf("%s: new %s entry (not in %s):\n  %s", s, s, file, a)
		}
		for _, c := range changed {
			t.Errorf("%s: %s", s, c)
		}
		for _, id := range gone {
			t.Logf("%s: %s no longer happens; run with -update to drop it from %s", s, id, file)
		}
		if len(g) > len(w) {
			t.Errorf("%s: %d entries, the expectation file lists %d", s, len(g), len(w))
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
