package productfilter

import (
	"encoding/json"

	"slices"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// OverlaySupported reports whether product (a Product object) covers
// required, a get_products request's required_overlay_support (3.2,
// core/targeting-overlay-requirements.json) against its overlay_support:
// a requirement true matches support true or any support object; an
// object requirement matches support true or an object holding every
// requested boolean and a superset of every requested array, nested
// objects alike. Numeric limits and ext do not participate; a requested
// field the support lacks does not match. No requirement (every release
// before 3.2) constrains nothing.
func OverlaySupported(required, product json.RawMessage) bool {
	req := wire.Lenient(required)
	empty := true
	req.Members(func(_, _ wire.Lenient) bool { empty = false; return false })
	if !req.IsObject() || empty {
		return true
	}
	return supports(req, wire.Lenient(product).Get("overlay_support"))
}

// supports reports whether support covers the requirement req.
func supports(req, support wire.Lenient) bool {
	switch {
	case !support.Present() || support.IsNull() || string(support) == "false":
		return false
	case string(support) == "true":
		return true // unrestricted support covers any requirement
	case string(req) == "true":
		return support.IsObject()
	case req.IsArray():
		if !support.IsArray() {
			return false
		}
		var have []string
		support.Elems(func(e wire.Lenient) bool {
			have = append(have, string(e.AppendCompact(nil)))
			return true
		})
		ok := true
		req.Elems(func(e wire.Lenient) bool {
			ok = slices.Contains(have, string(e.AppendCompact(nil)))
			return ok
		})
		return ok
	case req.IsObject():
		if !support.IsObject() {
			return false
		}
		ok := true
		req.Members(func(k, v wire.Lenient) bool {
			name, _ := k.AsString()
			if name == "ext" || v.IsNumber() || string(v) == "false" {
				return true
			}
			ok = supports(v, support.Get(name))
			return ok
		})
		return ok
	}
	return true // a number or false requests nothing
}
