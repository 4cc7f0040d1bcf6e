// Package billing applies AdCP's capability gate on an account's billing
// party: a seller refuses, per account of sync_accounts, a billing value
// its account.supported_billing capability does not list, with the code
// and details the serving release defines for it.
package billing

import (
	"slices"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// The codes of the gate: BILLING_NOT_SUPPORTED from 3.1; before it, a
// billing value the seller does not offer is a feature it lacks.
const (
	CodeNotSupported       = "BILLING_NOT_SUPPORTED"
	CodeUnsupportedFeature = "UNSUPPORTED_FEATURE"
)

// ScopeCapability is error-details/billing-not-supported.json's scope of
// this gate: supported_billing lacks the value.
const ScopeCapability = "capability"

// Offer is the billing a seller offers: its billing capability.
type Offer struct {
	// Supported is account.supported_billing, as the capabilities list it.
	Supported []string
}

// NotSupportedDetails is BILLING_NOT_SUPPORTED's details object
// (error-details/billing-not-supported.json).
type NotSupportedDetails struct {
	// Scope is the gate that fired; empty to a caller whose agent identity
	// is not established, which the schema says must not learn it.
	Scope string `json:"scope,omitempty"`
	// SupportedBilling echoes the capability, saving the caller a
	// get_adcp_capabilities round trip.
	SupportedBilling []string `json:"supported_billing,omitempty"`
}

// Check refuses party when Supported does not list it, nil when it does or
// when no party is asked for (the seller's default applies). field names
// the member ("accounts[0].billing"). Where sp defines
// BILLING_NOT_SUPPORTED the refusal has that code, correctable, with
// NotSupportedDetails; identified says the caller's agent identity is
// established (a signed request, or a credential mapped to an agent), the
// condition for naming the scope. Where it does not (3.0), the code is
// UNSUPPORTED_FEATURE with sp's recovery for it.
func (o Offer) Check(sp *registry.Spec, party, field string, identified bool) *adcperr.Error {
	if party == "" || slices.Contains(o.Supported, party) {
		return nil
	}
	e := &adcperr.Error{Code: CodeUnsupportedFeature, Field: field, Message: o.message(party)}
	if r, ok := sp.Recovery(CodeNotSupported); ok {
		d := NotSupportedDetails{SupportedBilling: slices.Clone(o.Supported)}
		if identified {
			d.Scope = ScopeCapability
		}
		e.Code, e.Recovery, e.Details = CodeNotSupported, r, d
		return e
	}
	e.Recovery, _ = sp.Recovery(e.Code)
	return e
}

// message says what the seller offers.
func (o Offer) message(party string) string {
	switch n := len(o.Supported); n {
	case 0:
		return "This seller sets no billing party by request, not " + party
	case 1:
		return "This seller offers " + o.Supported[0] + " billing only, not " + party
	default:
		return "This seller offers " + strings.Join(o.Supported[:n-1], ", ") + " or " + o.Supported[n-1] + " billing, not " + party
	}
}
