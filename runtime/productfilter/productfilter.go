// Package productfilter applies get_products' filters (core/product-filters.json)
// to a seller's products, as every release names them: it reads and writes
// JSON, so one seller serves the filters of 3.0, 3.1 and 3.2 with it.
//
// What a filter keeps, per the schema's descriptions:
//
//   - channels: products sold on any of the channels;
//   - delivery_type, exclusivity: products of that value;
//   - format_ids: products accepting any of the formats (agent_url and
//     id); format_kinds: products with a format option of any of the
//     canonical kinds (3.2); format_option_refs: products with any of the
//     format options named;
//   - required_metrics: products whose reporting_capabilities
//     available_metrics hold every metric; required_vendor_metrics:
//     products whose vendor_metrics cover every entry (a vendor's domain,
//     a metric_id, or both);
//   - pricing_currencies, is_fixed_price, pricing_structures: products
//     with a pricing option that meets them, their pricing options pruned
//     to those that do ("sellers MUST return only matching entries"): a
//     fixed option has fixed_price, an auction one is priced by bid
//     (floor_price or price_guidance, no fixed_price), a contingent one is
//     revenue_share, which is_fixed_price excludes either way; with
//     pricing_currencies, a product whose mandatory signal charges (the
//     default signals of a "fixed" signal selection) cannot be paid in
//     one of them is left out.
//
// A filter that depends on what only the seller knows (availability over
// start_date and end_date, budget_range, min_exposures, geography, signal
// targeting, required_features, standard_formats_only, keywords and the
// rest) is not applied: Apply returns its name in Filtered.Unapplied, for
// the seller to apply or to say it cannot. A product's members are left
// as they are but its pricing_options.
//
// Contradiction finds a request that states its delivery countries twice,
// differently (the deprecated filters.countries beside 3.2's
// targeting_overlay.geo_countries), which the seller must refuse;
// PlacementMatch, whether a product can carry 3.2's
// targeting_overlay.placement_selection; OverlaySupported, whether it
// covers 3.2's required_overlay_support; Unfit, why a package's
// targeting_overlay is one its product cannot execute.
package productfilter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Filtered is what Apply kept.
type Filtered struct {
	// Products are the products that pass every filter applied, in the
	// order given, their pricing_options pruned where a pricing filter
	// applied.
	Products []json.RawMessage
	// Unapplied are the filters present that Apply does not apply, sorted.
	Unapplied []string
}

// applied are the filters Apply applies.
var applied = []string{"channels", "delivery_type", "exclusivity", "format_ids", "format_kinds", "format_option_refs",
	"required_metrics", "required_vendor_metrics", "pricing_currencies", "is_fixed_price", "pricing_structures", "ext"}

// Apply filters products (each a Product object) by filters (the
// request's filters object; nil or absent keeps every product).
func Apply(filters json.RawMessage, products []json.RawMessage) (Filtered, error) {
	f := wire.Lenient(filters)
	if len(bytes.TrimSpace(filters)) == 0 || f.IsNull() {
		return Filtered{Products: products}, nil
	}
	if !f.IsObject() {
		return Filtered{}, fmt.Errorf("productfilter: filters is not a JSON object")
	}
	var res Filtered
	f.Members(func(key, _ wire.Lenient) bool {
		k, _ := key.AsString()
		if !slices.Contains(applied, k) {
			res.Unapplied = append(res.Unapplied, k)
		}
		return true
	})
	sort.Strings(res.Unapplied)
	for _, raw := range products {
		p := wire.Lenient(raw)
		if !p.IsObject() {
			return Filtered{}, fmt.Errorf("productfilter: a product is not a JSON object")
		}
		if !keeps(f, p) {
			continue
		}
		out, ok, err := prunePricing(f, raw)
		if err != nil {
			return Filtered{}, err
		}
		if ok {
			res.Products = append(res.Products, out)
		}
	}
	return res, nil
}

// keeps reports whether p passes the filters on the product's own
// members.
func keeps(f, p wire.Lenient) bool {
	if want := strs(f.Get("channels")); len(want) > 0 && !overlaps(want, strs(p.Get("channels"))) {
		return false
	}
	for _, k := range []string{"delivery_type", "exclusivity"} {
		if want, ok := f.Get(k).AsString(); ok {
			if got, _ := p.Get(k).AsString(); got != want {
				return false
			}
		}
	}
	if want := f.Get("format_ids"); want.IsArray() && !anyElem(want, func(w wire.Lenient) bool {
		return anyElem(p.Get("format_ids"), func(g wire.Lenient) bool { return sameFormatID(w, g) })
	}) {
		return false
	}
	if kinds := strs(f.Get("format_kinds")); len(kinds) > 0 && !anyElem(p.Get("format_options"), func(o wire.Lenient) bool {
		k, _ := o.Get("format_kind").AsString()
		return slices.Contains(kinds, k)
	}) {
		return false
	}
	if refs := f.Get("format_option_refs"); refs.IsArray() && !anyElem(refs, func(r wire.Lenient) bool {
		id, _ := r.Get("format_option_id").AsString()
		return anyElem(p.Get("format_options"), func(o wire.Lenient) bool { return o.Get("format_option_id").StringIs(id) })
	}) {
		return false
	}
	reporting := p.Get("reporting_capabilities")
	if want := strs(f.Get("required_metrics")); len(want) > 0 {
		have := strs(reporting.Get("available_metrics"))
		for _, m := range want {
			if !slices.Contains(have, m) {
				return false
			}
		}
	}
	if want := f.Get("required_vendor_metrics"); want.IsArray() && !allElems(want, func(w wire.Lenient) bool {
		return anyElem(reporting.Get("vendor_metrics"), func(g wire.Lenient) bool { return vendorMetricMatches(w, g) })
	}) {
		return false
	}
	return true
}

// vendorMetricMatches reports whether a product's vendor metric g meets
// the filter entry w: its vendor's domain and its metric_id, each where
// w pins it.
func vendorMetricMatches(w, g wire.Lenient) bool {
	if d, ok := w.Get("vendor").Get("domain").AsString(); ok {
		if got, _ := g.Get("vendor").Get("domain").AsString(); !strings.EqualFold(got, d) {
			return false
		}
	}
	if id, ok := w.Get("metric_id").AsString(); ok && !g.Get("metric_id").StringIs(id) {
		return false
	}
	return true
}

// prunePricing keeps the product's pricing options the pricing filters
// accept; ok is false when none is left. Without a pricing filter the
// product is as it was.
func prunePricing(f wire.Lenient, raw json.RawMessage) (json.RawMessage, bool, error) {
	currencies := strs(f.Get("pricing_currencies"))
	structures := strs(f.Get("pricing_structures"))
	fixed := f.Get("is_fixed_price")
	if len(currencies) == 0 && len(structures) == 0 && !fixed.Present() {
		return raw, true, nil
	}
	p := wire.Lenient(raw)
	if len(currencies) > 0 && !mandatorySignalsPayable(p, currencies) {
		return nil, false, nil
	}
	var kept [][]byte
	p.Get("pricing_options").Elems(func(o wire.Lenient) bool {
		s := structure(o)
		switch {
		case len(currencies) > 0 && !slices.Contains(currencies, str(o.Get("currency"))):
		case len(structures) > 0 && !slices.Contains(structures, s):
		case fixed.Present() && (s == "contingent" || (string(fixed) == "true") != (s == "fixed")):
		default:
			kept = append(kept, o.AppendCompact(nil))
		}
		return true
	})
	if len(kept) == 0 {
		return nil, false, nil
	}
	out, ok := p.WithMember("pricing_options", append(append([]byte{'['}, bytes.Join(kept, []byte{','})...), ']'))
	if !ok {
		return nil, false, fmt.Errorf("productfilter: a product is not a JSON object")
	}
	return out, true, nil
}

// mandatorySignalsPayable reports whether the product's mandatory signal
// charges can be paid in one of currencies: with signal_targeting_rules
// selection_mode "fixed", the seller applies the signal_targeting_options
// selected by default, and each must have a pricing option in one of the
// currencies or none at all (no incremental price).
func mandatorySignalsPayable(p wire.Lenient, currencies []string) bool {
	if !p.Get("signal_targeting_rules").Get("selection_mode").StringIs("fixed") {
		return true
	}
	return allElems(p.Get("signal_targeting_options"), func(o wire.Lenient) bool {
		if string(o.Get("default_selected")) != "true" {
			return true
		}
		prices := o.Get("pricing_options")
		if !anyElem(prices, func(wire.Lenient) bool { return true }) {
			return true
		}
		return anyElem(prices, func(po wire.Lenient) bool { return slices.Contains(currencies, str(po.Get("currency"))) })
	})
}

// structure is how a pricing option's price is set: "contingent" for
// revenue share, "fixed" with a fixed_price, else "auction".
func structure(o wire.Lenient) string {
	switch {
	case o.Get("pricing_model").StringIs("revenue_share"):
		return "contingent"
	case o.Get("fixed_price").Present():
		return "fixed"
	}
	return "auction"
}

// sameFormatID compares two format ids: id equal, agent URLs equal but
// for a trailing slash.
func sameFormatID(a, b wire.Lenient) bool {
	return str(a.Get("id")) == str(b.Get("id")) &&
		strings.TrimSuffix(str(a.Get("agent_url")), "/") == strings.TrimSuffix(str(b.Get("agent_url")), "/")
}

func str(v wire.Lenient) string { s, _ := v.AsString(); return s }

// strs reads an array of strings.
func strs(v wire.Lenient) []string {
	var out []string
	v.Elems(func(e wire.Lenient) bool {
		if s, ok := e.AsString(); ok {
			out = append(out, s)
		}
		return true
	})
	return out
}

func overlaps(a, b []string) bool {
	return slices.ContainsFunc(a, func(s string) bool { return slices.Contains(b, s) })
}

func anyElem(v wire.Lenient, f func(wire.Lenient) bool) bool {
	found := false
	v.Elems(func(e wire.Lenient) bool { found = f(e); return !found })
	return found
}

func allElems(v wire.Lenient, f func(wire.Lenient) bool) bool {
	all := true
	v.Elems(func(e wire.Lenient) bool { all = f(e); return all })
	return all
}
