package productfilter_test

import (
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/productfilter"
)

// A selected placement set is carried by a fixed product whose included
// set it restates exactly, or by a product whose targetable placements
// hold every ref and which advertises placement selection (within its
// limit); other modes, and releases without placement_selection, select
// nothing.
func TestPlacementMatch(t *testing.T) {
	const (
		fixed = `{"placements":[{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"feed","mode":"included"},` +
			`{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"short_video","mode":"included"}]}`
		selectable = `{"placements":[{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"feed","mode":"targetable"},` +
			`{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"short_video","mode":"targetable"}],` +
			`"overlay_support":{"placement_selection":{"max_values_per_package":1}}}`
		unsupported = `{"placements":[{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"feed","mode":"targetable"}]}`
		legacy      = `{"product_id":"p"}`
		feed        = `{"publisher_domain":"p.example","placement_id":"feed"}`
		short       = `{"publisher_domain":"p.example","placement_id":"short_video"}`
		other       = `{"publisher_domain":"q.example","placement_id":"feed"}`
	)
	sel := func(refs ...string) string {
		out := `{"mode":"selected","placement_refs":[`
		for i, r := range refs {
			if i > 0 {
				out += ","
			}
			out += r
		}
		return out + `]}`
	}
	cases := []struct {
		name, selection, product string
		want                     bool
	}{
		{"no selection (before 3.2)", ``, fixed, true},
		{"default mode", `{"mode":"default"}`, fixed, true},
		{"fixed set restated", sel(short, feed), fixed, true},
		{"fixed set in part", sel(feed), fixed, false},
		{"fixed set and more", sel(feed, short, other), fixed, false},
		{"targetable and supported", sel(short), selectable, true},
		{"over the support's limit", sel(feed, short), selectable, false},
		{"another publisher's ref", sel(other), selectable, false},
		{"targetable without support", sel(feed), unsupported, false},
		{"a product without placements", sel(feed), legacy, false},
	}
	for _, tc := range cases {
		if got := productfilter.PlacementMatch(json.RawMessage(tc.selection), json.RawMessage(tc.product)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
