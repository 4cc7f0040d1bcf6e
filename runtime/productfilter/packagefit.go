package productfilter

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Unfit reports why a package's targeting_overlay (3.2) is not one
// product (a Product object) can execute, as the AdCP error code and the
// field within the overlay ("" when it fits):
//   - a placement ref naming a publisher none of the product's placements
//     belongs to: INVALID_REQUEST at placement_selection.placement_refs[i];
//   - a placement selection the product cannot carry (PlacementMatch):
//     UNSUPPORTED_FEATURE at placement_selection;
//   - more values of a dimension than its overlay_support's
//     max_values_per_package, or a browser family its support does not
//     list: UNSUPPORTED_FEATURE at the dimension.
//
// A dimension the product declares no overlay_support for is not judged
// here: before 3.2 products declared none, and their packages target
// freely.
func Unfit(overlay, product json.RawMessage) (code, field string) {
	o, p := wire.Lenient(overlay), wire.Lenient(product)
	if !o.IsObject() {
		return "", ""
	}
	if sel := o.Get("placement_selection"); sel.IsObject() && sel.Get("mode").StringIs("selected") {
		var domains []string
		p.Get("placements").Elems(func(pl wire.Lenient) bool {
			d, _ := pl.Get("publisher_domain").AsString()
			domains = append(domains, d)
			return true
		})
		i, bad := 0, -1
		sel.Get("placement_refs").Elems(func(r wire.Lenient) bool {
			if d, _ := r.Get("publisher_domain").AsString(); len(domains) > 0 && !slices.Contains(domains, d) {
				bad = i
				return false
			}
			i++
			return true
		})
		if bad >= 0 {
			return "INVALID_REQUEST", fmt.Sprintf("placement_selection.placement_refs[%d]", bad)
		}
		if !PlacementMatch(sel.Raw(), product) {
			return "UNSUPPORTED_FEATURE", "placement_selection"
		}
	}
	support := p.Get("overlay_support")
	o.Members(func(k, v wire.Lenient) bool {
		name, _ := k.AsString()
		s := support.Get(name)
		if !v.IsArray() || !s.IsObject() || name == "placement_selection" {
			return true
		}
		n := 0
		var values []string
		v.Elems(func(e wire.Lenient) bool {
			n++
			str, _ := e.AsString()
			values = append(values, str)
			return true
		})
		if max, err := json.Number(s.Get("max_values_per_package")).Int64(); err == nil && int64(n) > max {
			code, field = "UNSUPPORTED_FEATURE", name
			return false
		}
		if fam := s.Get("families"); fam.IsArray() {
			have := strs(fam)
			for _, v := range values {
				if !slices.Contains(have, v) {
					code, field = "UNSUPPORTED_FEATURE", name
					return false
				}
			}
		}
		return true
	})
	return code, field
}
