package main

import (
	"context"
	"slices"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/testcontroller"
)

// The sandbox's fixture set. A compliance storyboard that seeds products
// (controller_seeding) sets up the catalog its discovery steps grade: it
// wants exactly its fixtures that match a filter back (products[1]
// absent), not the seller's own products beside them. The products seeded
// together, with no buyer call between them, are one fixture set; the
// next seeding after a buyer call starts another. Discovery in a sandbox
// answers from the latest fixture set when any of its products fits the
// request, else from the whole catalog (a storyboard that seeds nothing
// buys the seller's own products). Every seeded product stays buyable by
// id.

// fixtureSet is the latest fixture set: product ids in seeding order, and
// whether a buyer call has closed it since.
type fixtureSet struct {
	ids    []string
	closed bool
}

// noteSeed records a product seeded (or priced) by the test controller.
// A product seeded after the set was closed starts a new set; a pricing
// option (start false) joins its product to the current one.
func (c *catalog) noteSeed(id string, start bool) {
	if c.fixtures.closed && start {
		c.fixtures = fixtureSet{}
	}
	if !slices.Contains(c.fixtures.ids, id) {
		c.fixtures.ids = append(c.fixtures.ids, id)
	}
}

// closeFixtures ends the current fixture set: a buyer call came.
func (c *catalog) closeFixtures() {
	c.mu.Lock()
	c.fixtures.closed = true
	c.mu.Unlock()
}

// fromFixtures narrows discovery's products to the latest fixture set's,
// when any of them is among them.
func (c *catalog) fromFixtures(products []adcp.Product) []adcp.Product {
	c.mu.RLock()
	ids := slices.Clone(c.fixtures.ids)
	c.mu.RUnlock()
	var out []adcp.Product
	for _, p := range products {
		if slices.Contains(ids, p.ProductID) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return products
	}
	return out
}

// sandboxSession is the middleware that follows a compliance session on
// every call but the test controller's and capability discovery: such a
// call closes the fixture set, and lapses the caller's forced directives
// (force_*_arm, force_upstream_unavailable) for other tools. A directive
// is for the caller's next call of its tool, which every storyboard makes
// right after registering it; one a storyboard left behind (its later
// steps skipped) must not take over another storyboard's call.
func sandboxSession(s *sales) seller.Middleware {
	return func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, call *seller.Call) *seller.Answer {
			switch call.Tool.Name {
			case testcontroller.ToolName, "get_adcp_capabilities":
			default:
				s.catalog.closeFixtures()
				s.lapseDirectives(call.Principal.ID, call.Tool.Name)
			}
			return next(ctx, call)
		}
	}
}
