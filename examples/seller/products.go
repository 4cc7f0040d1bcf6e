package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/productfilter"
	"github.com/adcpgen/adcpgen/runtime/proposal"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Products and proposals. get_products answers every buying mode from the
// catalog; a brief also gets a proposal: a media plan over the products
// that fit the brief's channels, named after the plan's strategy and the
// quarter the brief names ("balanced_reach_q2"), recorded as a draft for
// the buyer (runtime/proposal). A refine of the proposal returns it again
// (an ask to drop a channel drops its products and spreads their share
// over the rest), or, with action finalize, commits it: firm pricing and
// an inventory hold of 72 hours. create_media_buy with proposal_id and
// total_budget accepts a committed proposal.

// getProducts answers the catalog for a brief (with a proposal) or
// wholesale, and for a refine the products and proposals it names.
//
// A property_list filter is refused: this seller does not resolve
// property lists (it does not declare media_buy.features
// .property_list_filtering), and answering the unfiltered catalog to a
// buyer who asked for a filter would mislead it (buyers built on the
// JavaScript SDK fail such an answer).
func (s *sales) getProducts(ctx context.Context, req *adcp.GetProductsRequest) (*adcp.GetProductsResult, error) {
	if req.PropertyList != nil {
		return nil, refuse("UNSUPPORTED_FEATURE", "This seller does not filter products by property list", "property_list")
	}
	p, _ := seller.PrincipalFrom(ctx)
	if s.sandbox && req.BuyingMode == adcp.GetProductsRequestBuyingModeBrief {
		// Wholesale feeds never take the forced arm (AdCP's
		// force_get_products_arm): only a brief's discovery is curated.
		if arm, ok := s.takeForcedArm(adcp.Tools.GetProducts.Name(), p.ID); ok {
			return s.productsSubmitted(ctx, arm)
		}
	}
	// The filters as the buyer sent them: a later release's (format_kinds,
	// format_option_refs) included, which its request read as 3.0's drops.
	var filters, overlay, required json.RawMessage
	if c := seller.CallFrom(ctx); c != nil {
		filters, overlay, required = c.Member("filters"), c.Member("targeting_overlay"), c.Member("required_overlay_support")
		// Two different statements of the delivery countries (3.2) are
		// ambiguous: the seller may not pick one.
		if field, ok := productfilter.Contradiction(filters, overlay); ok {
			return nil, refuse("INVALID_REQUEST", "filters.countries and targeting_overlay.geo_countries name different countries: "+
				"send the delivery countries once, in targeting_overlay.geo_countries", field)
		}
	}
	products, err := s.catalog.filtered(filters, overlay, required, servedSpec(ctx).Version())
	if err != nil {
		return nil, err
	}
	matching := products
	if s.sandbox {
		products = s.catalog.fromFixtures(products)
	}
	resp := &adcp.GetProductsResponse{Products: products}
	switch req.BuyingMode {
	case adcp.GetProductsRequestBuyingModeBrief:
		if req.Brief != nil {
			products = byRelevance(*req.Brief, products)
			resp.Products = products
		}
		if req.Brief != nil && !p.Anonymous() {
			// Proposals plan over every product that fits, the sandbox's
			// fixture set or not: a plan is the seller's to make.
			resp.Proposals = s.propose(p.ID, *req.Brief, byRelevance(*req.Brief, matching))
		}
	case adcp.GetProductsRequestBuyingModeRefine:
		named, proposals, applied, err := s.refine(ctx, p.ID, req.Refine)
		if err != nil {
			return nil, err
		}
		if len(named) > 0 {
			// Naming a product does not exempt it from the request's
			// filters: they are the complete filter state of a refine.
			resp.Products = []adcp.Product{}
			for _, n := range named {
				if slices.ContainsFunc(matching, func(m adcp.Product) bool { return m.ProductID == n.ProductID }) {
					resp.Products = append(resp.Products, n)
				}
			}
		}
		resp.Proposals, resp.RefinementApplied = proposals, applied
	}
	if !p.Anonymous() {
		account, _ := s.accounts.key(p.ID, req.Account)
		s.policies.discovered(p.ID, account, resp.Products)
	}
	if d, ok := s.takeUpstreamDown(p.ID); ok && s.sandbox {
		resp.Errors = append(resp.Errors, staleAdvisory(ctx, d, s.now())...)
	}
	return &adcp.GetProductsResult{Message: fmt.Sprintf("%d products.", len(resp.Products)), Response: resp}, nil
}

// channelWords are the words of a brief that ask for a channel.
var channelWords = map[string][]string{
	"video":   {"olv", "ctv"},
	"ctv":     {"ctv", "olv"},
	"preroll": {"olv"},
	"display": {"display"},
	"banner":  {"display"},
}

var quarter = regexp.MustCompile(`\b[Qq]([1-4])\b`)

// propose makes the brief's proposals for principal and records them as
// drafts: a balanced plan over up to three products whose channels the
// brief asks for (all products when it names none), video first, and,
// when it has several, a focused one putting the budget on its first.
func (s *sales) propose(principal, brief string, products []adcp.Product) []adcp.Proposal {
	lower := strings.ToLower(brief)
	var wanted []string
	for word, chans := range channelWords {
		if strings.Contains(lower, word) {
			wanted = append(wanted, chans...)
		}
	}
	var picked []adcp.Product
	for _, pass := range []func(adcp.Product) bool{
		func(p adcp.Product) bool { return hasChannel(p, "olv", "ctv") },
		func(p adcp.Product) bool { return !hasChannel(p, "olv", "ctv") },
	} {
		for _, p := range products {
			if len(picked) < 3 && pass(p) && (len(wanted) == 0 || hasChannel(p, wanted...)) && len(p.PricingOptions) > 0 {
				picked = append(picked, p)
			}
		}
	}
	if len(picked) == 0 {
		return nil
	}
	suffix, season := "", ""
	if m := quarter.FindStringSubmatch(brief); m != nil {
		suffix, season = "_q"+m[1], ", Q"+m[1]
	}
	plans := []struct {
		id, name, description string
		picked                []adcp.Product
	}{{"balanced_reach" + suffix, "Balanced reach" + season, "Reach across " + strings.Join(productIDs(picked), ", "), picked}}
	if len(picked) > 1 {
		plans = append(plans, struct {
			id, name, description string
			picked                []adcp.Product
		}{"focused_reach" + suffix, "Focused reach" + season, "The whole budget on " + picked[0].ProductID, picked[:1]})
	}
	var out []adcp.Proposal
	for _, plan := range plans {
		shares := map[int][]float64{1: {100}, 2: {60, 40}, 3: {50, 30, 20}}[len(plan.picked)]
		prop := proposal.Proposal{ID: plan.id, Name: plan.name}
		for i, p := range plan.picked {
			prop.Allocations = append(prop.Allocations, proposal.Allocation{ProductID: p.ProductID, PricingOptionID: s.catalog.firstPricing(p.ProductID), Percentage: shares[i]})
		}
		if err := s.proposals.Offer(principal, prop); err != nil {
			s.log.Error("proposal not recorded", "err", err.Error())
			continue
		}
		got, _ := s.proposals.Get(principal, plan.id)
		out = append(out, wireProposal(got, plan.description))
	}
	return out
}

// refine answers a refine: the products it names (include, more like
// this) and the proposals (include, finalize; omit leaves one out).
//
// A finalize commits: it goes alone or with other finalizes, never with
// refinements that change the request or products (INVALID_REQUEST
// naming the first of those); several finalizes commit together or not
// at all (each proposal is checked before any is committed). Each entry
// gets its refinement_applied acknowledgement, in order; a request-scoped
// ask, which this seller does not interpret, is "unable".
func (s *sales) refine(ctx context.Context, principal string, items []adcp.GetProductsRequestRefineItem) ([]adcp.Product, []adcp.Proposal, []adcp.GetProductsResponseRefinementAppliedItem, error) {
	book := s.proposals.In(servedSpec(ctx))
	finalizes, other := 0, -1
	for i, it := range items {
		if it.Proposal != nil && it.Proposal.Action != nil && *it.Proposal.Action == adcp.GetProductsRequestProposalActionFinalize {
			finalizes++
		} else if other < 0 {
			other = i
		}
	}
	if finalizes > 0 && other >= 0 {
		return nil, nil, nil, refuse("INVALID_REQUEST", "A finalize commits a proposal as it is: send it without other refinements, or refine first and finalize in a later call",
			fmt.Sprintf("refine[%d]", other))
	}
	if finalizes > 1 {
		for i, it := range items {
			p, ok := book.Get(principal, it.Proposal.ProposalID)
			if !ok || p.Status == proposal.Accepted {
				// Finalize answers the refusal (not found, or accepted)
				// without committing anything: nothing else was committed.
				_, err := book.Finalize(principal, it.Proposal.ProposalID)
				return nil, nil, nil, atEntry(err, i)
			}
		}
	}
	var products []adcp.Product
	var proposals []adcp.Proposal
	var applied []adcp.GetProductsResponseRefinementAppliedItem
	add := func(p adcp.Product) {
		if !slices.ContainsFunc(products, func(q adcp.Product) bool { return q.ProductID == p.ProductID }) {
			products = append(products, p)
		}
	}
	for i, it := range items {
		switch {
		case it.Request != nil:
			applied = append(applied, adcp.NewGetProductsResponseRefinementAppliedItemRequest(adcp.GetProductsResponseRefinementAppliedItemRequest{
				Status: adcp.GetProductsResponseRequestStatusUnable, Notes: ptr("This seller does not apply free-text refinements of the request."),
			}))
		case it.Product != nil:
			p, ok := s.catalog.product(it.Product.ProductID)
			status := adcp.GetProductsResponseProductStatusApplied
			if !ok {
				status = adcp.GetProductsResponseProductStatusUnable
			}
			applied = append(applied, adcp.NewGetProductsResponseRefinementAppliedItemProduct(adcp.GetProductsResponseRefinementAppliedItemProduct{
				ProductID: it.Product.ProductID, Status: status,
			}))
			if !ok || (it.Product.Action != nil && *it.Product.Action == adcp.GetProductsRequestProductActionOmit) {
				continue
			}
			add(p)
			if it.Product.Action != nil && *it.Product.Action == adcp.GetProductsRequestProductActionMoreLikeThis {
				for _, q := range s.catalog.all() {
					if q.ProductID != p.ProductID && len(p.Channels) > 0 && hasChannel(q, string(p.Channels[0])) {
						add(q)
					}
				}
			}
		case it.Proposal != nil:
			action := adcp.GetProductsRequestProposalActionInclude
			if it.Proposal.Action != nil {
				action = *it.Proposal.Action
			}
			var got proposal.Proposal
			var err error
			applied = append(applied, adcp.NewGetProductsResponseRefinementAppliedItemProposal(adcp.GetProductsResponseRefinementAppliedItemProposal{
				ProposalID: it.Proposal.ProposalID, Status: adcp.GetProductsResponseProposalStatusApplied,
			}))
			switch action {
			case adcp.GetProductsRequestProposalActionOmit:
				continue
			case adcp.GetProductsRequestProposalActionFinalize:
				got, err = book.Finalize(principal, it.Proposal.ProposalID)
			default:
				got, err = s.revise(book, principal, it.Proposal.ProposalID, it.Proposal.Ask)
			}
			if err != nil {
				return nil, nil, nil, atEntry(err, i)
			}
			proposals = append(proposals, wireProposal(got, ""))
			for _, a := range got.Allocations {
				if p, ok := s.catalog.product(a.ProductID); ok {
					add(p)
				}
			}
		}
	}
	return products, proposals, applied, nil
}

// atEntry points a proposal refusal at the refine entry that named the
// proposal (refine[i].proposal_id).
func atEntry(err error, i int) error {
	var ae *adcperr.Error
	if errors.As(err, &ae) && ae.Field == "proposal_id" {
		c := *ae
		c.Field = fmt.Sprintf("refine[%d].proposal_id", i)
		return &c
	}
	return err
}

// revise applies an ask to a proposal: "drop <channel>" removes the
// products of that channel and spreads their share over the others, in
// whole percents; the revised proposal is a draft again.
func (s *sales) revise(book *proposal.Book, principal, id string, ask *string) (proposal.Proposal, error) {
	p, ok := book.Get(principal, id)
	if !ok {
		_, err := book.Finalize(principal, id) // the release's not-found error
		return p, err
	}
	if ask != nil {
		lower := strings.ToLower(*ask)
		var kept []proposal.Allocation
		for _, a := range p.Allocations {
			prod, _ := s.catalog.product(a.ProductID)
			drop := false
			for word, chans := range channelWords {
				if (strings.Contains(lower, "drop the "+word) || strings.Contains(lower, "drop "+word)) && hasChannel(prod, chans...) {
					drop = true
				}
			}
			if !drop {
				kept = append(kept, a)
			}
		}
		if len(kept) > 0 && len(kept) < len(p.Allocations) {
			percents := make([]float64, len(kept))
			sum := 0.0
			for _, a := range kept {
				sum += a.Percentage
			}
			for i, a := range kept {
				percents[i] = a.Percentage * 100 / sum
			}
			for i, share := range proposal.Split(100, percents) {
				kept[i].Percentage = share
			}
			p.Allocations = kept
		}
	}
	if err := book.Offer(principal, p); err != nil {
		return p, err
	}
	got, _ := book.Get(principal, id)
	return got, nil
}

// wireProposal is a proposal as get_products shows it.
func wireProposal(p proposal.Proposal, description string) adcp.Proposal {
	out := adcp.Proposal{ProposalID: p.ID, Name: p.Name, ProposalStatus: ptr(adcp.ProposalStatus(p.Status))}
	if description != "" {
		out.Description = &description
	}
	if !p.ExpiresAt.IsZero() {
		out.ExpiresAt = ptr(wire.DateTime(p.ExpiresAt.Format(time.RFC3339)))
	}
	if p.Status == proposal.Committed {
		// A committed proposal comes with its insertion order, which the
		// buyer's create_media_buy may accept (io_acceptance names its
		// io_id); this seller asks no signature.
		out.InsertionOrder = &adcp.InsertionOrder{IoID: "io_" + p.ID}
	}
	for _, a := range p.Allocations {
		out.Allocations = append(out.Allocations, adcp.ProductAllocation{ProductID: a.ProductID, AllocationPercentage: a.Percentage, PricingOptionID: ptr(a.PricingOptionID)})
	}
	return out
}

// byRelevance orders products by how many of the brief's words their name
// and description hold, most first, catalog order among equals: a brief
// that names a product ("available actions display package") finds it
// first.
func byRelevance(brief string, products []adcp.Product) []adcp.Product {
	want := words(brief)
	score := make(map[string]int, len(products))
	for _, p := range products {
		text := p.Name
		if p.Description != "" {
			text += " " + p.Description
		}
		have := words(text)
		for w := range want {
			if have[w] {
				score[p.ProductID]++
			}
		}
	}
	out := slices.Clone(products)
	slices.SortStableFunc(out, func(a, b adcp.Product) int { return score[b.ProductID] - score[a.ProductID] })
	return out
}

// words are the lower-cased words of three letters or more in s.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 3 {
			out[w] = true
		}
	}
	return out
}

func hasChannel(p adcp.Product, chans ...string) bool {
	for _, c := range p.Channels {
		if slices.Contains(chans, string(c)) {
			return true
		}
	}
	return false
}

func productIDs(ps []adcp.Product) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ProductID)
	}
	return out
}
