package versions

import (
	"context"
	_ "embed"
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

//go:embed releases.go.txt
var releasesProgram string

// TestReleases: one buyer program holding the packages of the three
// published 3.x releases talks to a 3.0-only seller, a 3.2-only seller, a
// 3.0 seller that does not echo, a pre-v3 seller and one seller of all
// three releases (3.1 and 3.2 served through its 3.0 handlers), over MCP
// and A2A: supported_versions read, pins sent and echoed, VERSION_UNSUPPORTED
// typed (before sending once the releases are known), a downshift
// refused as a ReleaseError with the served release's value, an explicit
// re-pin, a task started at 3.2 through the 3.0 handlers finished in 3.2.
// releases.go.txt is the program; each check prints one line.
func TestReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and builds three spec versions into one program")
	}
	dir := testspec.Dir(t)
	root, err := roundtrip.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	sources := map[string]string{
		"adcp30": filepath.Join(dir, "protocol/3.0.26.tgz"),
		"adcp31": filepath.Join(dir, "schemas/3.1.19"),
		"adcp32": filepath.Join(dir, "schemas/3.2.0-beta.5"),
	}
	for pkg, source := range sources {
		tree, err := spec.Open(source)
		if err != nil {
			t.Fatal(err)
		}
		res, err := generator.Generate(generator.Options{Tree: tree, Package: pkg,
			Source: filepath.Base(source), Command: "go test ./internal/versions (generated for tests; never committed)"})
		if err != nil {
			t.Fatal(err)
		}
		if err := generator.WriteDir(filepath.Join(mod, pkg), res.Files); err != nil {
			t.Fatal(err)
		}
	}
	writeGoMod(t, mod, root, releasesProgram)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	bin, err := roundtrip.Build(ctx, mod)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, bin, "-tree30", sources["adcp30"], "-tree31", sources["adcp31"], "-tree32", sources["adcp32"]).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("program failed: %v", err)
	}
	const checks = 2 * 16
	if n := strings.Count(string(out), "\nok ") + boolInt(strings.HasPrefix(string(out), "ok ")); n != checks {
		t.Fatalf("%d checks passed, want %d", n, checks)
	}
}
