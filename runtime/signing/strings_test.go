package signing

import (
	"slices"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

func TestStringArray(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		problem string
	}{
		{``, nil, ""},
		{`[]`, nil, ""},
		{`["sign","verify"]`, []string{"sign", "verify"}, ""},
		{`"sign"`, nil, "is not an array"},
		{`["sign",1]`, nil, "holds a non-string"},
	} {
		var v wire.Lenient
		if tc.in != "" {
			var err error
			if v, err = wire.ParseLenient([]byte(tc.in)); err != nil {
				t.Fatal(err)
			}
		}
		got, problem := stringArray(v)
		if !slices.Equal(got, tc.want) || problem != tc.problem {
			t.Errorf("stringArray(%s) = %q, %q; want %q, %q", tc.in, got, problem, tc.want, tc.problem)
		}
	}
	// The readers name the member.
	if _, err := ParseRevocationList([]byte(`{"issuer":"x","updated":"2026-01-01T00:00:00Z","next_update":"2026-01-02T00:00:00Z","revoked_kids":"k"}`)); err == nil || !strings.Contains(err.Error(), "revoked_kids is not an array") {
		t.Errorf("revoked_kids a string: %v", err)
	}
}
