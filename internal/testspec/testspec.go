// Package testspec locates the published AdCP material (schemas, bundles,
// test vectors) for tests. It is never committed to this repository: tests
// read it from $ADCP_SPEC_DIR, or from ../shared/adcp beside the checkout.
//
// When it is absent, tests skip with a message saying where they looked;
// with ADCP_REQUIRE_SPEC=1 (set by .ci/run) they fail instead.
package testspec

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	once   sync.Once
	dir    string
	looked string
)

func locate() {
	if d := os.Getenv("ADCP_SPEC_DIR"); d != "" {
		looked = d + " ($ADCP_SPEC_DIR)"
		if isDir(d) {
			dir = d
		}
		return
	}
	root := moduleRoot()
	if root == "" {
		looked = "../shared/adcp (no go.mod found above the test's directory)"
		return
	}
	d := filepath.Join(root, "..", "shared", "adcp")
	looked = d
	if isDir(d) {
		dir = d
	}
}

func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			// The example module nests a go.mod; keep climbing to the main one.
			if _, err := os.Stat(filepath.Join(d, "runtime", "spec")); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// Dir returns the spec directory, or skips (fails under ADCP_REQUIRE_SPEC=1)
// when it is absent.
func Dir(t testing.TB) string {
	t.Helper()
	once.Do(locate)
	if dir == "" {
		msg := "published AdCP spec not found at " + looked + "; set ADCP_SPEC_DIR to run this test"
		if os.Getenv("ADCP_REQUIRE_SPEC") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

// Path returns a path inside the spec directory (see Dir).
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Dir(t)}, elem...)...)
}

// Versions lists the published versions, oldest first, and their sources
// relative to the spec directory. 3.2.0-beta.5 is a schema tree as
// published, with its mcp/ projections (which the generator and the
// validator skip: spec.DerivedDir).
var Versions = []struct{ Version, Source string }{
	{"2.5.3", "schemas/2.5.3"},
	{"3.0.0", "protocol/3.0.0.tgz"},
	{"3.0.26", "protocol/3.0.26.tgz"},
	{"3.1.19", "schemas/3.1.19"},
	{"3.2.0-beta.3", "schemas/3.2.0-beta.3"},
	{"3.2.0-beta.5", "schemas/3.2.0-beta.5"},
}
