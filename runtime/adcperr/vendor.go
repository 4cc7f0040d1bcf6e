package adcperr

import "regexp"

// vendorCode is the seller-specific code format X_{VENDOR}_{CODE}: VENDOR
// matches [A-Z][A-Z0-9]{1,19} (no underscore, so the split is unambiguous)
// and CODE matches [A-Z][A-Z0-9_]{1,39}.
var vendorCode = regexp.MustCompile(`^X_([A-Z][A-Z0-9]{1,19})_([A-Z][A-Z0-9_]{1,39})$`)

// ParseVendorCode splits a seller-specific code X_{VENDOR}_{CODE}. ok is
// false when code does not have that format.
func ParseVendorCode(code string) (vendor, name string, ok bool) {
	m := vendorCode.FindStringSubmatch(code)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// IsVendorCode reports whether code has the seller-specific format
// X_{VENDOR}_{CODE}. Vendor codes are never in a spec's table; without a
// recovery field they classify as unknown codes do.
func IsVendorCode(code string) bool { return vendorCode.MatchString(code) }
