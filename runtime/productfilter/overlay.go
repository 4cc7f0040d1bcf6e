package productfilter

import (
	"encoding/json"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Contradiction reports whether a get_products request states its delivery
// countries twice, differently: the deprecated filters.countries and (3.2)
// targeting_overlay.geo_countries naming different sets. Equal sets are
// one constraint, accepted; different ones are ambiguous, and the seller
// must refuse the request (INVALID_REQUEST) rather than choose one or
// read the legacy filter as a coverage hint (AdCP 3.2's
// targeting_aware_discovery). A request without both, as every one before
// 3.2 is, contradicts nothing. field is the member to name in the
// refusal.
func Contradiction(filters, overlay json.RawMessage) (field string, contradicts bool) {
	legacy, structured := wire.Lenient(filters).Get("countries"), wire.Lenient(overlay).Get("geo_countries")
	if !legacy.IsArray() || !structured.IsArray() {
		return "", false
	}
	upper := func(v wire.Lenient) []string {
		out := strs(v)
		for i := range out {
			out[i] = strings.ToUpper(out[i]) // the schemas' codes are capitals; a lower-case one is the same country
		}
		return out
	}
	if equalSets(upper(legacy), upper(structured)) {
		return "", false
	}
	return "targeting_overlay.geo_countries", true
}
