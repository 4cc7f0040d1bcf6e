package formatdecl

import (
	"encoding/json"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// CheckSelector checks a package's direct canonical selector (format_kind
// with optional params, create_media_buy 3.1 and later) against the
// product it buys: one of the product's format_options must be of that
// kind and, where the option fixes a dimension (params.width,
// params.height), the selector must name the same value. A selector that
// leaves a fixed dimension out under-specifies the product's declaration
// and is UNSUPPORTED_FEATURE for it, correctable, its field under at (the
// package's path, "packages[0]"). A package without format_kind, or a
// product that declares no format_options (its named formats stand), is
// not checked here.
func CheckSelector(product, pkg json.RawMessage, at string) *adcperr.Error {
	p, k := wire.Lenient(product), wire.Lenient(pkg)
	kind, ok := k.Get("format_kind").AsString()
	opts := p.Get("format_options")
	if !ok || !hasElems(opts) {
		return nil
	}
	params := k.Get("params")
	ofKind, why := false, ""
	satisfied := false
	opts.Elems(func(o wire.Lenient) bool {
		if !o.Get("format_kind").StringIs(kind) {
			return true
		}
		ofKind = true
		for _, dim := range []string{"width", "height"} {
			want := o.Get("params").Get(dim)
			if !want.IsNumber() {
				continue
			}
			if got := params.Get(dim); !got.Present() {
				why = fmt.Sprintf("the product's %s declaration fixes params.%s at %s: the selector must name it", kind, dim, want.Raw())
				return true
			} else if string(got.Raw()) != string(want.Raw()) {
				why = fmt.Sprintf("params.%s %s is not the %s the product's %s declaration fixes", dim, got.Raw(), want.Raw(), kind)
				return true
			}
		}
		satisfied = true
		return false
	})
	switch {
	case satisfied:
		return nil
	case !ofKind:
		return unsupported(at+".format_kind", fmt.Sprintf("The product declares no %s format option", kind))
	default:
		return unsupported(at+".params", "The format selector does not satisfy the product's declaration: "+why)
	}
}

func unsupported(field, message string) *adcperr.Error {
	return &adcperr.Error{Code: "UNSUPPORTED_FEATURE", Message: message, Field: field, Recovery: registry.Correctable}
}

// hasElems reports an array with an element.
func hasElems(v wire.Lenient) bool { return v.IsArray() && v.Index(0).Present() }
