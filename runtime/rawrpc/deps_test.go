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
	// The JSON reader is runtime/wire with the descriptor packages it reads.
	reader := map[string]bool{"github.com/adcpgen/adcpgen/runtime/rawrpc": true, "github.com/adcpgen/adcpgen/runtime/wire": true,
		"github.com/adcpgen/adcpgen/runtime/wireimpl": true, "github.com/adcpgen/adcpgen/runtime/internal/wiredesc": true,
		"github.com/adcpgen/adcpgen/runtime/internal/jsonscan": true}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(strings.Split(dep, "/")[0], ".") && !reader[dep] {
			t.Errorf("rawrpc depends on %s", dep)
		}
	}
}
