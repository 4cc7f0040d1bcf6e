// Package provenance enforces the provenance requirements a product's
// creative_policy publishes (AdCP 3.1 and later) on a creative submitted
// with sync_creatives: the structural-rejection surface of
// core/creative-policy.json. A seller that publishes provenance_required,
// provenance_requirements or accepted_verifiers MUST reject a creative
// that does not meet them with the matching PROVENANCE_* code, before any
// call to a verifier: a verify_agent URL off the seller's allowlist is
// refused without being called (the buyer represents a verifier the
// seller recognizes, it does not route the seller's calls).
//
// The checks run in one order, and the first unmet requirement is the
// creative's error, so a buyer corrects one thing at a time:
// provenance present (PROVENANCE_REQUIRED), digital_source_type,
// synthetic_depiction, every verify_agent on the allowlist, disclosure
// metadata, embedded provenance. Whether the claims are true is another
// surface (get_creative_features, PROVENANCE_CLAIM_CONTRADICTED).
package provenance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Applies reports whether policy (a creative_policy object) asks anything
// of a creative's provenance.
func Applies(policy json.RawMessage) bool {
	p := wire.Lenient(policy)
	return isTrue(p.Get("provenance_required")) || hasElems(p.Get("accepted_verifiers"))
}

// Enforce returns the first requirement of policy (a creative_policy
// object) that creative (a creative asset as sent) does not meet, as a
// correctable error whose field is under at (the creative's path in the
// request, "creatives[0]"); nil when it meets them all. The creative's
// provenance is its own, else that of its manifest.
func Enforce(policy, creative json.RawMessage, at string) *adcperr.Error {
	p, c := wire.Lenient(policy), wire.Lenient(creative)
	field := at + ".provenance"
	prov := c.Get("provenance")
	if !prov.IsObject() {
		if m := c.Get("manifest").Get("provenance"); m.IsObject() {
			prov, field = m, at+".manifest.provenance"
		}
	}
	req := p.Get("provenance_requirements")
	required := isTrue(p.Get("provenance_required"))
	if required && !prov.IsObject() {
		return fail("PROVENANCE_REQUIRED", field, "This product's creative policy requires provenance: attach a provenance object to the creative")
	}
	if !prov.IsObject() {
		return nil // only the allowlist applies, and nothing points at a verifier
	}
	if required && isTrue(req.Get("require_digital_source_type")) && !isString(prov.Get("digital_source_type")) {
		return fail("PROVENANCE_DIGITAL_SOURCE_TYPE_MISSING", field+".digital_source_type", "This product's creative policy requires provenance.digital_source_type")
	}
	if required && isTrue(req.Get("require_synthetic_depiction")) && !isBool(prov.Get("synthetic_depiction")) {
		return fail("PROVENANCE_SYNTHETIC_DEPICTION_MISSING", field+".synthetic_depiction", "This product's creative policy requires provenance.synthetic_depiction (true or false)")
	}
	if e := checkVerifiers(p.Get("accepted_verifiers"), prov, field); e != nil {
		return e
	}
	if required && isTrue(req.Get("require_disclosure_metadata")) && !isBool(prov.Get("disclosure").Get("required")) {
		return fail("PROVENANCE_DISCLOSURE_MISSING", field+".disclosure", "This product's creative policy requires provenance.disclosure with disclosure.required")
	}
	if required && isTrue(req.Get("require_embedded_provenance")) && !hasElems(prov.Get("embedded_provenance")) {
		return fail("PROVENANCE_EMBEDDED_MISSING", field+".embedded_provenance", "This product's creative policy requires at least one provenance.embedded_provenance entry")
	}
	return nil
}

// checkVerifiers refuses a verify_agent (on embedded_provenance[] or
// watermarks[]) whose agent_url, canonicalized, is none of accepted's.
// With no allowlist published, no verify_agent is refused.
func checkVerifiers(accepted, prov wire.Lenient, field string) *adcperr.Error {
	if !hasElems(accepted) {
		return nil
	}
	var allowed []string
	accepted.Elems(func(a wire.Lenient) bool {
		if u, ok := a.Get("agent_url").AsString(); ok {
			allowed = append(allowed, canonical(u))
		}
		return true
	})
	var bad *adcperr.Error
	for _, list := range []string{"embedded_provenance", "watermarks"} {
		i := 0
		prov.Get(list).Elems(func(e wire.Lenient) bool {
			at := fmt.Sprintf("%s.%s[%d].verify_agent.agent_url", field, list, i)
			i++
			v := e.Get("verify_agent")
			if !v.Present() {
				return true
			}
			u, _ := v.Get("agent_url").AsString()
			if !slices.Contains(allowed, canonical(u)) {
				bad = fail("PROVENANCE_VERIFIER_NOT_ACCEPTED", at, "verify_agent.agent_url is not among this product's accepted_verifiers: represent one of them")
				return false
			}
			return true
		})
		if bad != nil {
			return bad
		}
	}
	return nil
}

// canonical is u as url-canonicalization compares agent URLs (lowercase
// scheme and host, default port stripped, dot-segments resolved); u
// itself when it does not parse, so that it matches only itself.
func canonical(u string) string {
	target, _, err := signing.CanonicalURL(u)
	if err != nil {
		return u
	}
	return strings.TrimSuffix(target, "/")
}

func fail(code, field, message string) *adcperr.Error {
	return &adcperr.Error{Code: code, Message: message, Field: field, Recovery: registry.Correctable}
}

func isString(v wire.Lenient) bool { s, ok := v.AsString(); return ok && s != "" }

func isTrue(v wire.Lenient) bool { return string(v.Raw()) == "true" }

func isBool(v wire.Lenient) bool { return string(v.Raw()) == "true" || string(v.Raw()) == "false" }

// hasElems reports an array with an element.
func hasElems(v wire.Lenient) bool { return v.IsArray() && v.Index(0).Present() }
