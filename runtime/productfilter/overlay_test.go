package productfilter_test

import (
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/productfilter"
)

// The deprecated filters.countries and targeting_overlay.geo_countries
// (3.2) contradict each other only when both are given and name different
// countries; any release's request without both contradicts nothing.
func TestContradiction(t *testing.T) {
	cases := []struct {
		name, filters, overlay string
		want                   bool
	}{
		{"3.2 equivalent", `{"channels":["olv"],"countries":["US"]}`, `{"geo_countries":["US"]}`, false},
		{"3.2 conflicting", `{"channels":["olv"],"countries":["CA"]}`, `{"geo_countries":["US"]}`, true},
		{"same set, other order and case", `{"countries":["US","ca","US"]}`, `{"geo_countries":["CA","US"]}`, false},
		{"a superset", `{"countries":["US","CA"]}`, `{"geo_countries":["US"]}`, true},
		{"overlay only (3.2)", `{"channels":["olv"]}`, `{"geo_countries":["US"]}`, false},
		{"legacy only (3.0, 3.1)", `{"countries":["US"]}`, ``, false},
		{"no filters", ``, ``, false},
		{"not arrays", `{"countries":"US"}`, `{"geo_countries":["CA"]}`, false},
	}
	for _, tc := range cases {
		field, got := productfilter.Contradiction(json.RawMessage(tc.filters), json.RawMessage(tc.overlay))
		if got != tc.want || (got && field != "targeting_overlay.geo_countries") {
			t.Errorf("%s: %q %v, want %v", tc.name, field, got, tc.want)
		}
	}
}
