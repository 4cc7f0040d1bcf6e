// Package examples_test runs the examples that live in their own modules
// (go build ./... of the main module does not see them).
package examples_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

// TestDownstream runs examples/downstream/run.sh: go generate through the
// tool directive, the lock check, go vet, go run and the output check. The
// first run compiles the generated 3.0.26 package (about a minute on two
// cores); later runs hit the build cache.
func TestDownstream(t *testing.T) { runExample(t, "downstream") }

// TestSeller runs examples/seller/run.sh: go generate, the tidy check, go
// vet, the seller's tests with go-sdk's and a2a-go's clients, and the built
// seller started on a loopback port.
func TestSeller(t *testing.T) { runExample(t, "seller") }

// runExample runs dir/run.sh with the spec directory.
func runExample(t *testing.T, dir string) {
	t.Helper()
	specDir, err := filepath.Abs(testspec.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		t.Skip("-short: the example compiles a generated 3.0.26 package")
	}
	for _, tool := range []string{"sh", "go", "diff", "sed", "curl", "grep"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the example needs %s on PATH: %v", tool, err)
		}
	}
	start := time.Now()
	cmd := exec.Command("./run.sh")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "ADCP_SPEC_DIR="+specDir)
	out, err := cmd.CombinedOutput()
	t.Logf("run.sh took %s", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("examples/%s/run.sh: %v\n%s", dir, err, out)
	}
	if !strings.HasSuffix(string(out), "run.sh: ok\n") {
		t.Fatalf("run.sh did not finish:\n%s", out)
	}
}
