package productfilter

import (
	"encoding/json"
	"slices"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// PlacementMatch reports whether product (a Product object) can carry
// selection, a targeting_overlay.placement_selection (3.2,
// core/placement-selection.json): mode "selected" names the complete
// placement set bought, which a product satisfies when the set exactly
// equals its complete included placement set (an inherent restatement of a
// fixed product), or when every ref names one of its targetable placements
// and it advertises overlay_support.placement_selection, no more refs than
// that support's max_values_per_package. Any other selection mode, or no
// selection (every release before 3.2), constrains nothing. Refs are
// compared by publisher_domain and placement_id.
func PlacementMatch(selection, product json.RawMessage) bool {
	sel := wire.Lenient(selection)
	if !sel.IsObject() || !sel.Get("mode").StringIs("selected") {
		return true
	}
	var want []string
	sel.Get("placement_refs").Elems(func(r wire.Lenient) bool {
		want = append(want, placementKey(r))
		return true
	})
	if len(want) == 0 {
		return false
	}
	p := wire.Lenient(product)
	var included, targetable []string
	p.Get("placements").Elems(func(pl wire.Lenient) bool {
		switch {
		case pl.Get("mode").StringIs("included"):
			included = append(included, placementKey(pl))
		case pl.Get("mode").StringIs("targetable"):
			targetable = append(targetable, placementKey(pl))
		}
		return true
	})
	if sameSet(want, included) {
		return true
	}
	support := p.Get("overlay_support").Get("placement_selection")
	if len(included) > 0 || !support.Present() || string(support) == "false" {
		return false
	}
	if max, err := json.Number(support.Get("max_values_per_package")).Int64(); err == nil && int64(len(want)) > max {
		return false
	}
	for _, k := range want {
		if !slices.Contains(targetable, k) {
			return false
		}
	}
	return true
}

// placementKey identifies a placement or a placement ref.
func placementKey(v wire.Lenient) string {
	d, _ := v.Get("publisher_domain").AsString()
	id, _ := v.Get("placement_id").AsString()
	return d + "\x00" + id
}

// sameSet reports whether a and b hold the same elements, b some.
func sameSet(a, b []string) bool { return len(b) > 0 && equalSets(a, b) }

// equalSets reports whether a and b hold the same elements, repeats and
// order aside.
func equalSets(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
