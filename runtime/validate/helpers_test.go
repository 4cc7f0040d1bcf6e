package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

var (
	validatorsMu sync.Mutex
	validators   = map[string]*Validator{}
)

// versionValidator opens a published version once per test binary.
func versionValidator(t testing.TB, version string) *Validator {
	t.Helper()
	dir := testspec.Dir(t)
	validatorsMu.Lock()
	defer validatorsMu.Unlock()
	if v, ok := validators[version]; ok {
		return v
	}
	for _, tv := range testspec.Versions {
		if tv.Version != version {
			continue
		}
		tree, err := spec.Open(filepath.Join(dir, tv.Source))
		if err != nil {
			t.Fatalf("open %s: %v", version, err)
		}
		v, err := New(tree, Options{})
		if err != nil {
			t.Fatalf("validator for %s: %v", version, err)
		}
		validators[version] = v
		return v
	}
	t.Fatalf("no published version %s", version)
	return nil
}

// benchFixture reads the get_products response fixture.
func benchFixture(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testspec.Dir(t), "..", "bench", "get-products-response-3.0.26.json"))
	if err != nil {
		t.Fatalf("bench fixture: %v", err)
	}
	return data
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeJSON(t testing.TB, data []byte) any {
	t.Helper()
	v, err := decodePayload(data, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
