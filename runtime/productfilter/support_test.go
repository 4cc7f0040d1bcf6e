package productfilter_test

import (
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/productfilter"
)

// required_overlay_support (3.2) matches a product's overlay_support as
// core/targeting-overlay-requirements.json says: true matches true or any
// object, an object matches true or an object holding every requested
// boolean and array subset; limits do not participate, and a field the
// support lacks does not match.
func TestOverlaySupported(t *testing.T) {
	const product = `{"product_id":"p","overlay_support":{` +
		`"geo_countries":{"max_values_per_package":1},` +
		`"geo_proximity":{"radius":true,"max_values_per_package":1},` +
		`"geo_metros":{"systems":["nielsen_dma"]},` +
		`"placement_selection":{"max_values_per_package":2},` +
		`"browser":{"families":["chrome","safari","firefox","unknown"]},` +
		`"keyword_targets":true,"property_list":true,"demographics":{"age":true}}}`
	cases := []struct {
		name, required, product string
		want                    bool
	}{
		{"no requirement (before 3.2)", ``, product, true},
		{"empty requirement", `{}`, `{"product_id":"p"}`, true},
		{"true matches a support object", `{"geo_countries":true,"placement_selection":true}`, product, true},
		{"true matches true", `{"property_list":true}`, product, true},
		{"requested boolean held", `{"geo_proximity":{"radius":true}}`, product, true},
		{"requested boolean missing", `{"geo_proximity":{"travel_time":true}}`, product, false},
		{"array subset", `{"geo_metros":{"systems":["nielsen_dma"]},"browser":{"families":["chrome","firefox"]}}`, product, true},
		{"array not a subset", `{"browser":{"families":["chrome","edge"]}}`, product, false},
		{"unrestricted true covers an object", `{"keyword_targets":{"supported_match_types":["exact"]}}`, product, true},
		{"nested object", `{"demographics":{"age":true}}`, product, true},
		{"dimension not supported", `{"daypart_targets":true}`, product, false},
		{"no overlay_support", `{"geo_countries":true}`, `{"product_id":"p"}`, false},
		{"support false", `{"property_list":true}`, `{"overlay_support":{"property_list":false}}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := productfilter.OverlaySupported(json.RawMessage(c.required), json.RawMessage(c.product)); got != c.want {
				t.Errorf("OverlaySupported(%s) = %v, want %v", c.required, got, c.want)
			}
		})
	}
}
