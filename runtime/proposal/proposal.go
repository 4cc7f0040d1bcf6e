// Package proposal keeps a seller's media plan proposals through their
// AdCP lifecycle: get_products answers a brief with draft proposals
// (indicative pricing), a refine with action "finalize" commits one (firm
// pricing, inventory held until expires_at), and create_media_buy with
// proposal_id and total_budget accepts it, turning its allocation
// percentages into package budgets. The seller decides what to propose;
// a Book records what it proposed to whom, enforces the lifecycle and
// does the arithmetic:
//
//   - a proposal belongs to the principal it was offered to: another
//     buyer's id is not found, like one that never existed (the code is
//     PROPOSAL_NOT_FOUND where the version has it, else
//     REFERENCE_NOT_FOUND);
//   - allocations must sum to 100 (core/proposal.json);
//   - accepting a draft is PROPOSAL_NOT_COMMITTED, a lapsed hold
//     PROPOSAL_EXPIRED; a proposal is accepted once, into one buy;
//   - budgets are split by the percentages in cents, the remainder to the
//     largest shares, so they add up to the total exactly.
//
// The wire shapes (core/proposal.json) are the generated package's; the
// seller fills them from Proposal. A Book is in memory and safe for
// concurrent use.
package proposal

import (
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// State is a proposal's lifecycle status (enums/proposal-status.json;
// 3.2 adds accepted).
type State string

// The statuses.
const (
	Draft     State = "draft"
	Committed State = "committed"
	Accepted  State = "accepted"
)

// Allocation is one product's share of a proposal's budget.
type Allocation struct {
	ProductID       string
	PricingOptionID string
	// Percentage of the total budget, 0-100.
	Percentage float64
}

// Proposal is a media plan offered to one buyer.
type Proposal struct {
	ID          string
	Name        string
	Allocations []Allocation
	Status      State
	// ExpiresAt is when a committed proposal's hold lapses (zero for a
	// draft).
	ExpiresAt time.Time
	// MediaBuyID is the buy an accepted proposal became.
	MediaBuyID string
}

// Package is one package of the buy a proposal becomes.
type Package struct {
	ProductID       string
	PricingOptionID string
	Budget          float64
}

// Options configure a Book.
type Options struct {
	// Hold is how long a committed proposal holds its inventory; 0 means
	// DefaultHold.
	Hold time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultHold is a committed proposal's hold when Options.Hold is zero.
const DefaultHold = 72 * time.Hour

// Book holds the proposals a seller made, per principal.
type Book struct {
	spec *registry.Spec
	hold time.Duration
	now  func() time.Time
	*ledger
}

// ledger is the proposals, which the Books In returns share.
type ledger struct {
	mu        sync.Mutex
	proposals map[key]*Proposal
}

type key struct{ principal, id string }

// New returns an empty Book for the spec's version (its error codes).
func New(spec *registry.Spec, opts Options) *Book {
	b := &Book{spec: spec, hold: opts.Hold, now: opts.Now, ledger: &ledger{proposals: map[key]*Proposal{}}}
	if b.hold <= 0 {
		b.hold = DefaultHold
	}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// In returns the Book answering in spec's version: the same proposals,
// refused with the error codes spec lists (a seller serving several
// releases answers a 3.1 buyer PROPOSAL_NOT_FOUND where it answers a 3.0
// one REFERENCE_NOT_FOUND). A nil spec returns b.
func (b *Book) In(spec *registry.Spec) *Book {
	if spec == nil || spec == b.spec {
		return b
	}
	c := *b
	c.spec = spec
	return &c
}

// Offer records p, a draft, for principal, replacing the proposal of that
// id (a refined proposal keeps its id). Its allocations must name
// products and sum to 100.
func (b *Book) Offer(principal string, p Proposal) error {
	if p.ID == "" || len(p.Allocations) == 0 {
		return fmt.Errorf("proposal: a proposal needs an id and allocations")
	}
	sum := 0.0
	for _, a := range p.Allocations {
		if a.ProductID == "" || a.Percentage < 0 || a.Percentage > 100 {
			return fmt.Errorf("proposal %s: allocation %+v", p.ID, a)
		}
		sum += a.Percentage
	}
	if math.Abs(sum-100) > 1e-9 {
		return fmt.Errorf("proposal %s: allocations sum to %v, not 100", p.ID, sum)
	}
	p.Status, p.ExpiresAt, p.MediaBuyID = Draft, time.Time{}, ""
	p.Allocations = append([]Allocation(nil), p.Allocations...)
	b.mu.Lock()
	b.proposals[key{principal, p.ID}] = &p
	b.mu.Unlock()
	return nil
}

// Get returns principal's proposal id.
func (b *Book) Get(principal, id string) (Proposal, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.proposals[key{principal, id}]
	if !ok {
		return Proposal{}, false
	}
	return clone(p), true
}

// Finalize commits principal's proposal id: firm, with its inventory held
// for the Book's hold from now. Finalizing a committed proposal again
// returns it as it is. An unknown id is not found; an accepted one is
// INVALID_STATE.
func (b *Book) Finalize(principal, id string) (Proposal, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.proposals[key{principal, id}]
	switch {
	case !ok:
		return Proposal{}, b.notFound(id)
	case p.Status == Accepted:
		return Proposal{}, b.refuse("INVALID_STATE", "Proposal "+id+" was accepted already")
	case p.Status == Committed && b.now().Before(p.ExpiresAt):
		return clone(p), nil
	}
	p.Status, p.ExpiresAt = Committed, b.now().Add(b.hold).UTC().Truncate(time.Second)
	return clone(p), nil
}

// Accept turns principal's committed proposal id into packages, splitting
// total by the allocations, and records it as accepted into mediaBuyID.
// A draft is PROPOSAL_NOT_COMMITTED, a lapsed hold PROPOSAL_EXPIRED, an
// accepted proposal INVALID_STATE, an unknown id not found.
func (b *Book) Accept(principal, id string, total float64, mediaBuyID string) ([]Package, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out, err := b.quote(principal, id, total)
	if err != nil {
		return nil, err
	}
	p := b.proposals[key{principal, id}]
	p.Status, p.MediaBuyID = Accepted, mediaBuyID
	return out, nil
}

// Quote returns the packages Accept would make, with its checks, without
// accepting: for a seller that checks the rest of the buy before
// committing it.
func (b *Book) Quote(principal, id string, total float64) ([]Package, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.quote(principal, id, total)
}

func (b *Book) quote(principal, id string, total float64) ([]Package, error) {
	p, ok := b.proposals[key{principal, id}]
	switch {
	case !ok:
		return nil, b.notFound(id)
	case p.Status == Draft:
		return nil, b.refuse("PROPOSAL_NOT_COMMITTED", "Proposal "+id+" is a draft: finalize it first (get_products, buying_mode refine, action finalize)")
	case p.Status == Accepted:
		return nil, b.refuse("INVALID_STATE", "Proposal "+id+" was accepted already, into media buy "+p.MediaBuyID)
	case !b.now().Before(p.ExpiresAt):
		return nil, b.refuse("PROPOSAL_EXPIRED", "Proposal "+id+"'s hold expired at "+p.ExpiresAt.Format(time.RFC3339))
	case total <= 0:
		return nil, &adcperr.Error{Code: b.code("INVALID_REQUEST"), Message: "total_budget must be positive", Field: "total_budget.amount"}
	}
	percents := make([]float64, len(p.Allocations))
	for i, a := range p.Allocations {
		percents[i] = a.Percentage
	}
	budgets := Split(total, percents)
	out := make([]Package, len(p.Allocations))
	for i, a := range p.Allocations {
		out[i] = Package{ProductID: a.ProductID, PricingOptionID: a.PricingOptionID, Budget: budgets[i]}
	}
	return out, nil
}

// Split divides total by percentages, which sum to 100, in whole cents: each
// share rounded down, the cents left over to the largest remainders (the
// first among equals), so the shares add up to total.
func Split(total float64, percents []float64) []float64 {
	cents := int64(math.Round(total * 100))
	shares := make([]int64, len(percents))
	type rem struct {
		i    int
		frac float64
	}
	rems := make([]rem, len(percents))
	var given int64
	for i, pct := range percents {
		exact := float64(cents) * pct / 100
		shares[i] = int64(math.Floor(exact))
		given += shares[i]
		rems[i] = rem{i, exact - float64(shares[i])}
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].frac > rems[b].frac })
	for k := 0; given < cents && len(rems) > 0; k = (k + 1) % len(rems) {
		shares[rems[k].i]++
		given++
	}
	out := make([]float64, len(shares))
	for i, s := range shares {
		out[i] = float64(s) / 100
	}
	return out
}

func clone(p *Proposal) Proposal {
	c := *p
	c.Allocations = append([]Allocation(nil), p.Allocations...)
	return c
}

// code is c when the spec lists it, else INVALID_REQUEST.
func (b *Book) code(c string) string {
	if _, ok := b.spec.Recovery(c); ok {
		return c
	}
	return "INVALID_REQUEST"
}

func (b *Book) notFound(id string) *adcperr.Error {
	c := "PROPOSAL_NOT_FOUND"
	if _, ok := b.spec.Recovery(c); !ok {
		c = "REFERENCE_NOT_FOUND"
	}
	return &adcperr.Error{Code: c, Message: "No proposal " + id + " was made to this buyer", Field: "proposal_id"}
}

func (b *Book) refuse(code, msg string) *adcperr.Error {
	return &adcperr.Error{Code: b.code(code), Message: msg, Field: "proposal_id"}
}
