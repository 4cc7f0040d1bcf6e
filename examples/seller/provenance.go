package main

import (
	"encoding/json"
	"slices"
	"sync"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/provenance"
)

// Provenance requirements. A product's creative_policy may require
// provenance of the creatives that run on it (provenance_required,
// provenance_requirements, accepted_verifiers), and the seller enforces
// them on sync_creatives (runtime/provenance). A sync names no product,
// so this seller holds it to the policies of the products the buyer
// discovered last: the products of the account's latest get_products
// answer, the ones whose creative policy the buyer read before building
// its creatives. A discovery that returns no such product lifts them; a
// buyer that never discovered is held to none.

// policies keeps, by principal and account, the provenance-bearing
// creative policies of the latest get_products answer.
type policies struct {
	mu sync.Mutex
	by map[string][]json.RawMessage
	// enforced are the registry policies of enforced_policies this seller
	// checks (tagscan.go), by principal and account.
	enforced map[string][]string
}

func policyKey(principal, account string) string { return principal + "\x00" + account }

// discovered records the creative policies of products, the answer of a
// get_products of principal's in account.
func (ps *policies) discovered(principal, account string, products []adcp.Product) {
	var held []json.RawMessage
	var enforced []string
	for _, p := range products {
		for _, id := range p.EnforcedPolicies {
			if slices.Contains(scannedPolicies, id) && !slices.Contains(enforced, id) {
				enforced = append(enforced, id)
			}
		}
		if p.CreativePolicy == nil {
			continue
		}
		raw, err := json.Marshal(p.CreativePolicy)
		if err == nil && provenance.Applies(raw) {
			held = append(held, raw)
		}
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.by == nil {
		ps.by, ps.enforced = map[string][]json.RawMessage{}, map[string][]string{}
	}
	key := policyKey(principal, account)
	delete(ps.by, key)
	delete(ps.enforced, key)
	if len(held) > 0 {
		ps.by[key] = held
	}
	if len(enforced) > 0 {
		ps.enforced[key] = enforced
	}
}

// enforcedFor are the scanned registry policies principal's sync in
// account is held to.
func (ps *policies) enforcedFor(principal, account string) []string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.enforced[policyKey(principal, account)]
}

// check returns the first requirement of the policies principal's sync
// in account is held to that creative (as sent, at its path) does not
// meet, nil when it meets them all.
func (ps *policies) check(principal, account string, creative json.RawMessage, at string) *adcp.Error {
	ps.mu.Lock()
	held := ps.by[policyKey(principal, account)]
	ps.mu.Unlock()
	for _, policy := range held {
		if e := provenance.Enforce(policy, creative, at); e != nil {
			return wireError(e)
		}
	}
	return nil
}
