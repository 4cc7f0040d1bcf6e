package rawrpc_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The typed layer takes a Response from either transport without pulling
// in an SDK: this package depends on the standard library and the
// runtime's JSON reader only.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/adcpgen/adcpgen/runtime/rawrpc").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(strings.Split(dep, "/")[0], ".") && dep != "github.com/adcpgen/adcpgen/runtime/rawrpc" && dep != "github.com/adcpgen/adcpgen/runtime/wire" {
			t.Errorf("rawrpc depends on %s", dep)
		}
	}
}
