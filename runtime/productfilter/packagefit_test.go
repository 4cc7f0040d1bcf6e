package productfilter_test

import (
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/productfilter"
)

// A package's 3.2 targeting is refused where its product cannot carry it:
// a placement of another publisher (INVALID_REQUEST at the ref), a
// selection the product cannot make, more values than a dimension's
// max_values_per_package, a browser family its support does not list
// (UNSUPPORTED_FEATURE at the dimension). Dimensions without declared
// support (every product before 3.2) are not judged.
func TestUnfit(t *testing.T) {
	const (
		selectable = `{"placements":[{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"feed","mode":"targetable"},` +
			`{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"short_video","mode":"targetable"}],` +
			`"overlay_support":{"placement_selection":{"max_values_per_package":2},"geo_countries":{"max_values_per_package":1},` +
			`"geo_proximity":{"radius":true,"max_values_per_package":1},"browser":{"families":["chrome","safari"]}}}`
		fixed = `{"placements":[{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"feed","mode":"included"},` +
			`{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"short_video","mode":"included"}]}`
		legacy = `{"product_id":"p"}`
		feed   = `{"publisher_domain":"p.example","placement_id":"feed"}`
		short  = `{"publisher_domain":"p.example","placement_id":"short_video"}`
		other  = `{"publisher_domain":"q.example","placement_id":"feed"}`
	)
	sel := func(refs string) string {
		return `{"placement_selection":{"mode":"selected","placement_refs":[` + refs + `]}}`
	}
	cases := []struct {
		name, overlay, product, code, field string
	}{
		{"no overlay", ``, selectable, "", ""},
		{"selectable placement", sel(feed), selectable, "", ""},
		{"fixed set restated", sel(feed + "," + short), fixed, "", ""},
		{"partial fixed set", sel(feed), fixed, "UNSUPPORTED_FEATURE", "placement_selection"},
		{"other publisher", sel(feed + "," + other), selectable, "INVALID_REQUEST", "placement_selection.placement_refs[1]"},
		{"countries within the limit", `{"geo_countries":["US"]}`, selectable, "", ""},
		{"countries over the limit", `{"geo_countries":["US","CA"]}`, selectable, "UNSUPPORTED_FEATURE", "geo_countries"},
		{"proximity over the limit", `{"geo_proximity":[{"lat":1,"lng":2},{"lat":3,"lng":4}]}`, selectable, "UNSUPPORTED_FEATURE", "geo_proximity"},
		{"listed browser", `{"browser":["chrome"]}`, selectable, "", ""},
		{"unlisted browser", `{"browser":["chrome","edge"]}`, selectable, "UNSUPPORTED_FEATURE", "browser"},
		{"no declared support", `{"geo_countries":["US","CA"],"browser":["edge"]}`, legacy, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, field := productfilter.Unfit(json.RawMessage(c.overlay), json.RawMessage(c.product))
			if code != c.code || field != c.field {
				t.Errorf("Unfit(%s) = %q, %q, want %q, %q", c.overlay, code, field, c.code, c.field)
			}
		})
	}
}
