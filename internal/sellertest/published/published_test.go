// Package published runs the seller with the Go package generated from a
// published spec version (3.0.26) at test time: it is never committed.
package published

import (
	"context"
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/roundtrip"
	"github.com/adcpgen/adcpgen/internal/testspec"
)

//go:embed main.go.txt
var program string

// TestPublished3026 generates 3.0.26 into a temporary module with a program
// that serves it over MCP and A2A on loopback, with the bundle's schemas
// validating every request and response, and calls it with the raw-bytes
// clients: input schemas bundled from the real tree compile standalone,
// the 35.7 KB get_products fixture goes out and decodes, the automatic
// capabilities answer validates, a bad request gets INVALID_REQUEST.
func TestPublished3026(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the generated 3.0.26 package")
	}
	dir := testspec.Dir(t)
	bundle := filepath.Join(dir, "protocol", "3.0.26.tgz")
	fixture := filepath.Join(dir, "..", "bench", "get-products-response-3.0.26.json")
	if _, err := os.Stat(fixture); err != nil {
		t.Skipf("bench fixture: %v", err)
	}
	root, err := roundtrip.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	if _, err := roundtrip.GeneratePackage(bundle, filepath.Join(mod, "v3_0_26"), "v3_0_26", ""); err != nil {
		t.Fatal(err)
	}
	// The program imports the SDKs' dependencies directly too (the schema
	// compiler), so the module requires what adcpgen's does.
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
	for name, data := range map[string]string{"go.mod": gomod, "go.sum": string(sum), "main.go": program} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
	defer cancel()
	bin, err := roundtrip.Build(ctx, mod)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, bin, bundle, fixture).CombinedOutput()
	t.Logf("%s", out)
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "ok") {
		t.Fatalf("program failed: %v", err)
	}
}
