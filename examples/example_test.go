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
func TestDownstream(t *testing.T) {
	specDir, err := filepath.Abs(testspec.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		t.Skip("-short: the downstream example compiles a generated 3.0.26 package")
	}
	for _, tool := range []string{"sh", "go", "diff", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the example needs %s on PATH: %v", tool, err)
		}
	}
	start := time.Now()
	cmd := exec.Command("./run.sh")
	cmd.Dir = "downstream"
	cmd.Env = append(cmd.Environ(), "ADCP_SPEC_DIR="+specDir)
	out, err := cmd.CombinedOutput()
	t.Logf("run.sh took %s", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("examples/downstream/run.sh: %v\n%s", err, out)
	}
	if !strings.HasSuffix(string(out), "run.sh: ok\n") {
		t.Fatalf("run.sh did not finish:\n%s", out)
	}
}
