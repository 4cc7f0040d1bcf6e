package runtime

import (
	"fmt"
	"regexp"
	"sort"
)

// CodeTable maps standard AdCP error codes to their recovery class. It is
// consulted only when an error carries no usable `recovery` field.
//
// Tables come from BuiltinCodes, from a spec manifest (ParseManifestCodes,
// LoadManifestCodes), or from several joined with UnionCodes; WithFallback
// fills gaps from another table. A nil *CodeTable is empty. Tables are
// immutable once built and safe for concurrent use.
type CodeTable struct {
	codes map[string]Recovery
	// unknown is the manifest's error_code_policy.default_unknown_recovery,
	// "" when the sources do not say.
	unknown Recovery
	// sources names where the table came from, for messages.
	sources []string
}

// builtinCodes is seed 001's CODE_RECOVERY table plus AUTH_MISSING, which
// the current spec names as the successor of AUTH_REQUIRED. Everything else
// comes from the manifests of the spec versions in use.
var builtinCodes = map[string]Recovery{
	"RATE_LIMITED":             RecoveryTransient,
	"SERVICE_UNAVAILABLE":      RecoveryTransient,
	"CONFLICT":                 RecoveryTransient,
	"INVALID_REQUEST":          RecoveryCorrectable,
	"AUTH_REQUIRED":            RecoveryCorrectable,
	"AUTH_MISSING":             RecoveryCorrectable,
	"POLICY_VIOLATION":         RecoveryCorrectable,
	"PRODUCT_NOT_FOUND":        RecoveryCorrectable,
	"PRODUCT_UNAVAILABLE":      RecoveryCorrectable,
	"PROPOSAL_EXPIRED":         RecoveryCorrectable,
	"BUDGET_TOO_LOW":           RecoveryCorrectable,
	"CREATIVE_REJECTED":        RecoveryCorrectable,
	"UNSUPPORTED_FEATURE":      RecoveryCorrectable,
	"AUDIENCE_TOO_SMALL":       RecoveryCorrectable,
	"ACCOUNT_SETUP_REQUIRED":   RecoveryCorrectable,
	"ACCOUNT_AMBIGUOUS":        RecoveryCorrectable,
	"COMPLIANCE_UNSATISFIED":   RecoveryCorrectable,
	"ACCOUNT_NOT_FOUND":        RecoveryTerminal,
	"ACCOUNT_PAYMENT_REQUIRED": RecoveryTerminal,
	"ACCOUNT_SUSPENDED":        RecoveryTerminal,
	"BUDGET_EXHAUSTED":         RecoveryTerminal,
}

var builtinTable = &CodeTable{codes: builtinCodes, sources: []string{"built-in"}}

// BuiltinCodes returns the table built into the runtime: the 20 codes of the
// founding transport-error document plus AUTH_MISSING. Use a manifest table
// (or WithFallback) for the full list of a spec version.
func BuiltinCodes() *CodeTable { return builtinTable }

// NewCodeTable builds a table from a map (copied). source names it in
// messages. Every recovery must be transient, correctable or terminal.
func NewCodeTable(source string, codes map[string]Recovery, defaultUnknown Recovery) (*CodeTable, error) {
	t := &CodeTable{codes: make(map[string]Recovery, len(codes)), sources: []string{source}}
	for code, r := range codes {
		if !r.Valid() {
			return nil, fmt.Errorf("code table %s: %s: recovery %q is not transient, correctable or terminal", source, code, r)
		}
		t.codes[code] = r
	}
	if defaultUnknown != "" && !defaultUnknown.Valid() {
		return nil, fmt.Errorf("code table %s: default unknown recovery %q is not transient, correctable or terminal", source, defaultUnknown)
	}
	t.unknown = defaultUnknown
	return t, nil
}

// Lookup returns the recovery class of a standard code.
func (t *CodeTable) Lookup(code string) (Recovery, bool) {
	if t == nil {
		return "", false
	}
	r, ok := t.codes[code]
	return r, ok
}

// Len is the number of codes in the table.
func (t *CodeTable) Len() int {
	if t == nil {
		return 0
	}
	return len(t.codes)
}

// Codes lists the table's codes, sorted.
func (t *CodeTable) Codes() []string {
	if t == nil {
		return nil
	}
	out := make([]string, 0, len(t.codes))
	for c := range t.codes {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// DefaultUnknownRecovery is the manifests' error_code_policy
// default_unknown_recovery, or "" when no source gave one. The runtime does
// not apply it on its own (unknown codes are terminal, as the published
// vectors require); pass it as Extractor.UnknownRecovery to opt in.
func (t *CodeTable) DefaultUnknownRecovery() Recovery {
	if t == nil {
		return ""
	}
	return t.unknown
}

// Sources names where the table's codes came from.
func (t *CodeTable) Sources() []string {
	if t == nil {
		return nil
	}
	return append([]string(nil), t.sources...)
}

// UnionCodes joins tables. A code listed by several tables must have the
// same class in each (the spec never moves a code between classes); a
// disagreement is an error naming the code and both sources. So is a
// disagreement on default_unknown_recovery. Nil tables are skipped.
func UnionCodes(tables ...*CodeTable) (*CodeTable, error) {
	out := &CodeTable{codes: map[string]Recovery{}}
	from := map[string]string{}
	unknownFrom := ""
	for _, t := range tables {
		if t == nil {
			continue
		}
		src := t.name()
		for code, r := range t.codes {
			if prev, ok := out.codes[code]; ok && prev != r {
				return nil, fmt.Errorf("error code %s is %s in %s but %s in %s", code, prev, from[code], r, src)
			}
			if _, ok := out.codes[code]; !ok {
				out.codes[code] = r
				from[code] = src
			}
		}
		if t.unknown != "" {
			if out.unknown != "" && out.unknown != t.unknown {
				return nil, fmt.Errorf("default_unknown_recovery is %s in %s but %s in %s", out.unknown, unknownFrom, t.unknown, src)
			}
			out.unknown, unknownFrom = t.unknown, src
		}
		out.sources = append(out.sources, t.sources...)
	}
	return out, nil
}

// WithFallback returns a table holding t's codes plus those of fallback that
// t lacks. Where both list a code, t wins: a manifest describes the current
// spec, the fallback an older document.
func (t *CodeTable) WithFallback(fallback *CodeTable) *CodeTable {
	out := &CodeTable{codes: map[string]Recovery{}}
	if fallback != nil {
		for c, r := range fallback.codes {
			out.codes[c] = r
		}
		out.unknown = fallback.unknown
	}
	if t != nil {
		for c, r := range t.codes {
			out.codes[c] = r
		}
		if t.unknown != "" {
			out.unknown = t.unknown
		}
		out.sources = append(out.sources, t.sources...)
	}
	if fallback != nil {
		out.sources = append(out.sources, fallback.sources...)
	}
	return out
}

func (t *CodeTable) name() string {
	switch len(t.sources) {
	case 0:
		return "an unnamed table"
	case 1:
		return t.sources[0]
	default:
		return fmt.Sprint(t.sources)
	}
}

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
// X_{VENDOR}_{CODE}. Vendor codes are never in a standard table; without a
// recovery field they classify as unknown codes do.
func IsVendorCode(code string) bool { return vendorCode.MatchString(code) }
