package totalbudget_test

import (
	"testing"

	"github.com/adcpgen/adcpgen/runtime/totalbudget"
)

// ReadAmount never panics: an amount or an INVALID_REQUEST, never both.
func FuzzReadAmount(f *testing.F) {
	for _, s := range []string{``, `{"amount":1,"currency":"USD"}`, `[]`, `{"amount":1e309}`, `{"amount":1,"amount":2}`, `nul`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := totalbudget.ReadAmount(b)
		if a != nil && err != nil {
			t.Fatalf("%q: both %+v and %v", b, a, err)
		}
		if err != nil && code(err) != "INVALID_REQUEST total_budget" {
			t.Fatalf("%q: %v", b, err)
		}
		if a != nil {
			_, _ = totalbudget.Scale([]totalbudget.PackageBudget{{ID: "p", Budget: 1, Active: true}}, a.Currency, *a)
		}
	})
}
