package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Materialized localization (AdCP 3.2): a creative synced with its
// already-translated locale variants (localization: a source, target
// variants with the assets they replace, language-range fallbacks, a
// default and what to do for an unmatched locale). This seller keeps the
// topology as given and answers it back, resolved (every variant with its
// complete assets), in sync_creatives and list_creatives; matching is
// RFC 4647 lookup, which its capabilities declare. It translates nothing.

// localizationCapability is 3.2's creative.localization block.
const localizationCapability = `{"locale_matching":"rfc4647_lookup","max_target_variants":50}`

// readback is the resolved localization of a creative whose source
// assets are assets (the sync_creatives and list_creatives answer's
// localization), or the error of entry i's topology when it is not one:
// variant ids unique, the default and every fallback naming one of them.
func readback(loc wire.Lenient, assets json.RawMessage, i int) (json.RawMessage, *adcp.Error) {
	at := func(member string) *string { return ptr(fmt.Sprintf("creatives[%d].localization.%s", i, member)) }
	invalid := func(member, msg string) (json.RawMessage, *adcp.Error) {
		return nil, &adcp.Error{Code: "VALIDATION_ERROR", Message: msg, Field: at(member), Recovery: ptr(adcp.ErrorRecoveryCorrectable)}
	}
	var source map[string]json.RawMessage
	_ = json.Unmarshal(assets, &source)
	srcID := str(loc.Get("source").Get("locale_variant_id"))
	ids := []string{srcID}
	variants := []map[string]any{{"locale_variant_id": srcID, "locale": loc.Get("source").Get("locale").Raw(), "role": "source", "assets": source}}
	var bad string
	loc.Get("target_variants").Elems(func(t wire.Lenient) bool {
		id := str(t.Get("locale_variant_id"))
		if slices.Contains(ids, id) {
			bad = id
			return false
		}
		ids = append(ids, id)
		resolved := maps.Clone(source)
		var own map[string]json.RawMessage
		_ = json.Unmarshal(t.Get("assets").Raw(), &own)
		maps.Copy(resolved, own)
		variants = append(variants, map[string]any{"locale_variant_id": id, "locale": t.Get("locale").Raw(), "role": "target", "assets": resolved})
		return true
	})
	if bad != "" {
		return invalid("target_variants", "Locale variant id "+bad+" is used twice")
	}
	def := str(loc.Get("default_locale_variant_id"))
	if !slices.Contains(ids, def) {
		return invalid("default_locale_variant_id", "default_locale_variant_id "+def+" names neither the source nor a target variant")
	}
	j := 0
	loc.Get("locale_fallbacks").Elems(func(f wire.Lenient) bool {
		if !slices.Contains(ids, str(f.Get("locale_variant_id"))) {
			bad = fmt.Sprintf("locale_fallbacks[%d].locale_variant_id", j)
			return false
		}
		j++
		return true
	})
	if bad != "" {
		return invalid(bad, "A fallback names neither the source nor a target variant")
	}
	out := map[string]any{"default_locale_variant_id": def, "unmatched_locale_action": loc.Get("unmatched_locale_action").Raw(),
		"locale_matching": "rfc4647_lookup", "variants": variants}
	if f := loc.Get("locale_fallbacks"); f.Present() {
		out["locale_fallbacks"] = f.Raw()
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return invalid("source", "The localization could not be read")
	}
	return raw, nil
}
