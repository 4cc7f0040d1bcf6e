package productfilter

import (
	"encoding/json"
	"slices"

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
	a, b := strs(legacy), strs(structured)
	for i := range a {
		a[i] = upper(a[i])
	}
	for i := range b {
		b[i] = upper(b[i])
	}
	slices.Sort(a)
	slices.Sort(b)
	if slices.Equal(slices.Compact(a), slices.Compact(b)) {
		return "", false
	}
	return "targeting_overlay.geo_countries", true
}

// upper is an ISO 3166-1 alpha-2 code in capitals (the schemas' pattern
// is capitals; a lower-case one is the same country).
func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
