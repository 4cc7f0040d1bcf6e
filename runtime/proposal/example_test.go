package proposal_test

import (
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/proposal"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// A brief gets a draft proposal; finalize commits it with a hold; the
// create_media_buy that names it gets its packages.
func Example() {
	spec := registry.NewSpec(registry.SpecConfig{Version: "3.0.26", Codes: registry.ErrorCodes{
		{Code: "PROPOSAL_NOT_COMMITTED", Recovery: registry.Correctable}, {Code: "REFERENCE_NOT_FOUND", Recovery: registry.Correctable},
	}}) // your generated package's adcp.Spec()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	book := proposal.New(spec, proposal.Options{Hold: 48 * time.Hour, Now: func() time.Time { return now }})

	err := book.Offer("buyer", proposal.Proposal{ID: "balanced_reach_q2", Name: "Balanced reach, Q2", Allocations: []proposal.Allocation{
		{ProductID: "sports_preroll_q2", PricingOptionID: "cpm_guaranteed", Percentage: 60},
		{ProductID: "lifestyle_display_q2", PricingOptionID: "cpm_standard", Percentage: 40},
	}})
	if err != nil {
		panic(err)
	}
	_, err = book.Accept("buyer", "balanced_reach_q2", 50000, "mb_1")
	fmt.Println(err)
	p, _ := book.Finalize("buyer", "balanced_reach_q2")
	fmt.Println(p.Status, p.ExpiresAt.Format(time.RFC3339))
	pkgs, _ := book.Accept("buyer", "balanced_reach_q2", 50000, "mb_1")
	for _, pkg := range pkgs {
		fmt.Println(pkg.ProductID, pkg.PricingOptionID, pkg.Budget)
	}
	// Output:
	// adcp error PROPOSAL_NOT_COMMITTED: Proposal balanced_reach_q2 is a draft: finalize it first (get_products, buying_mode refine, action finalize)
	// committed 2026-03-03T12:00:00Z
	// sports_preroll_q2 cpm_guaranteed 30000
	// lifestyle_display_q2 cpm_standard 20000
}
