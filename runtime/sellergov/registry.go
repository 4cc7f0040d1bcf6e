package sellergov

import (
	"slices"
	"sync"
)

// GovernanceAgent is a governance agent a buyer registered on an account.
type GovernanceAgent struct {
	// URL is the agent's endpoint.
	URL string
	// Scheme is how the seller authenticates ("Bearer"), Credentials with
	// what (write-only on the wire).
	Scheme      string
	Credentials string
	// Categories are the governance categories the agent covers
	// (budget_authority, brand_policy, ...); none means all.
	Categories []string
}

// Covers reports whether the agent covers category ("" matches any).
func (a GovernanceAgent) Covers(category string) bool {
	return category == "" || len(a.Categories) == 0 || slices.Contains(a.Categories, category)
}

// Registry keeps the governance agents registered per principal and
// account. It is in memory and safe for concurrent use.
type Registry struct {
	mu     sync.RWMutex
	agents map[regKey][]GovernanceAgent
}

type regKey struct{ principal, account string }

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry { return &Registry{agents: map[regKey][]GovernanceAgent{}} }

// Sync replaces the agents of principal's account (the seller's key for
// the account reference): sync_governance's replace semantics; no agents
// removes them all.
func (r *Registry) Sync(principal, account string, agents []GovernanceAgent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := regKey{principal, account}
	if len(agents) == 0 {
		delete(r.agents, k)
		return
	}
	cp := make([]GovernanceAgent, len(agents))
	for i, a := range agents {
		a.Categories = slices.Clone(a.Categories)
		cp[i] = a
	}
	r.agents[k] = cp
}

// Agents lists the agents of principal's account.
func (r *Registry) Agents(principal, account string) []GovernanceAgent {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.agents[regKey{principal, account}])
}

// For returns the first agent of principal's account that covers
// category.
func (r *Registry) For(principal, account, category string) (GovernanceAgent, bool) {
	for _, a := range r.Agents(principal, account) {
		if a.Covers(category) {
			return a, true
		}
	}
	return GovernanceAgent{}, false
}
