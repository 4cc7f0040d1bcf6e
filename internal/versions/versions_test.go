// Package versions runs the seller and the typed buyer on the published
// spec versions, with the Go packages generated from them at test time
// (never committed): the protocol envelope filled by the framework on every
// version, a task finished by another replica than the one that started
// it, a replay that keeps its message, the body cap answered in the
// protocol. main.go.txt is the program, built once per version against its
// generated package; testdata holds what differs between versions (a
// create_media_buy request and responses), written for these tests.
package versions

import (
	"context"
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/roundtrip"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

//go:embed main.go.txt
var program string

// TestFindings: each version's program prints one line per check; every
// check must pass. contradiction is what a handler's create_media_buy
// response whose status contradicts the envelope's gets: refused where the
// version's schema reserves the key for the envelope (3.1 and later), sent
// where the status is the payload's own (3.0's, the media buy's).
func TestFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and builds three spec versions")
	}
	dir := testspec.Dir(t)
	root, err := roundtrip.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		version, source, contradiction string
		checks                         int
	}{
		{"3.0.26", "protocol/3.0.26.tgz", "sent", 16},
		{"3.1.19", "schemas/3.1.19", "refused", 16},
		{"3.2.0-beta.5", "schemas/3.2.0-beta.5", "refused", 16},
	} {
		t.Run(tc.version, func(t *testing.T) {
			source := filepath.Join(dir, tc.source)
			mod := t.TempDir()
			writeModule(t, mod, root, source)
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
			defer cancel()
			bin, err := roundtrip.Build(ctx, mod)
			if err != nil {
				t.Fatal(err)
			}
			fixtures, err := filepath.Abs(filepath.Join("testdata", tc.version))
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.CommandContext(ctx, bin, "-tree", source, "-fixtures", fixtures, "-contradiction", tc.contradiction).CombinedOutput()
			t.Logf("%s", out)
			if err != nil {
				t.Fatalf("program failed: %v", err)
			}
			if n := strings.Count(string(out), "\nok ") + boolInt(strings.HasPrefix(string(out), "ok ")); n != tc.checks {
				t.Fatalf("%d checks passed, want %d", n, tc.checks)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeModule writes the program's module: the version's package
// generated at adcp, main.go, and a
// go.mod requiring this repository by a replace.
func writeModule(t *testing.T, mod, root, source string) {
	t.Helper()
	tree, err := spec.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	res, err := generator.Generate(generator.Options{Tree: tree, Package: "adcp",
		Source: filepath.Base(source), Command: "go test ./internal/versions (generated for tests; never committed)"})
	if err != nil {
		t.Fatal(err)
	}
	if err := generator.WriteDir(filepath.Join(mod, "adcp"), res.Files); err != nil {
		t.Fatal(err)
	}
	writeGoMod(t, mod, root, program)
}

// writeGoMod writes a program's go.mod (requiring this repository by a
// replace), go.sum and main.go into mod.
func writeGoMod(t *testing.T, mod, root, main string) {
	t.Helper()
	rootMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	_, requires, _ := strings.Cut(string(rootMod), "\nrequire")
	gomod := "module " + roundtrip.ModulePath + "\n\ngo 1.26.0\n\nrequire github.com/adcpgen/adcpgen v0.0.0\n\nrequire" + requires +
		"\nreplace github.com/adcpgen/adcpgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"go.mod": gomod, "go.sum": string(sum), "main.go": main} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
