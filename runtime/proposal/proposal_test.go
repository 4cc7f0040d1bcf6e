package proposal_test

import (
	"errors"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/proposal"
)

func code(err error) string {
	var e *adcperr.Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return "error"
	}
	return ""
}

var plan = proposal.Proposal{ID: "balanced_reach_q2", Name: "Balanced reach", Allocations: []proposal.Allocation{
	{ProductID: "ctv", PricingOptionID: "cpm", Percentage: 60},
	{ProductID: "olv", PricingOptionID: "cpm", Percentage: 40},
}}

// proposal_finalize's lifecycle, on each version's error codes: brief
// (draft), refine (replaced), finalize (committed, held), accept; and what
// may not happen on the way.
func TestLifecycle(t *testing.T) {
	for _, c := range []struct{ version, notFound string }{
		{"3.0.26", "REFERENCE_NOT_FOUND"}, {"3.1.19", "PROPOSAL_NOT_FOUND"}, {"3.2.0-beta.5", "PROPOSAL_NOT_FOUND"},
	} {
		t.Run(c.version, func(t *testing.T) {
			_, sp := specseller.Open(t, c.version)
			now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
			b := proposal.New(sp, proposal.Options{Hold: time.Hour, Now: func() time.Time { return now }})
			if err := b.Offer("buyer-a", plan); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Accept("buyer-a", plan.ID, 1000, "mb_1"); code(err) != "PROPOSAL_NOT_COMMITTED" {
				t.Errorf("accept a draft: %v", err)
			}
			if _, err := b.Finalize("buyer-b", plan.ID); code(err) != c.notFound {
				t.Errorf("another buyer's proposal: %v", err)
			}
			p, err := b.Finalize("buyer-a", plan.ID)
			if err != nil || p.Status != proposal.Committed || !p.ExpiresAt.Equal(now.Add(time.Hour)) {
				t.Fatalf("finalize: %+v %v", p, err)
			}
			now = now.Add(2 * time.Hour)
			if _, err := b.Accept("buyer-a", plan.ID, 1000, "mb_1"); code(err) != "PROPOSAL_EXPIRED" {
				t.Errorf("accept after the hold: %v", err)
			}
			if p, err = b.Finalize("buyer-a", plan.ID); err != nil || !p.ExpiresAt.Equal(now.Add(time.Hour)) {
				t.Fatalf("finalize again: %+v %v", p, err)
			}
			if q, err := b.Quote("buyer-a", plan.ID, 50000); err != nil || len(q) != 2 {
				t.Fatalf("quote: %+v %v", q, err)
			}
			if got, _ := b.Get("buyer-a", plan.ID); got.Status != proposal.Committed {
				t.Fatalf("quoting accepted the proposal: %+v", got)
			}
			pkgs, err := b.Accept("buyer-a", plan.ID, 50000, "mb_1")
			if err != nil || len(pkgs) != 2 || pkgs[0] != (proposal.Package{ProductID: "ctv", PricingOptionID: "cpm", Budget: 30000}) || pkgs[1].Budget != 20000 {
				t.Fatalf("accept: %+v %v", pkgs, err)
			}
			if _, err := b.Accept("buyer-a", plan.ID, 50000, "mb_2"); code(err) != "INVALID_STATE" {
				t.Errorf("accept twice: %v", err)
			}
			if got, ok := b.Get("buyer-a", plan.ID); !ok || got.Status != proposal.Accepted || got.MediaBuyID != "mb_1" {
				t.Errorf("get: %+v", got)
			}
			// A refined proposal keeps its id and starts as a draft again.
			if err := b.Offer("buyer-a", plan); err != nil {
				t.Fatal(err)
			}
			if got, _ := b.Get("buyer-a", plan.ID); got.Status != proposal.Draft {
				t.Errorf("re-offered: %+v", got)
			}
		})
	}
}

// One seller serving several releases keeps one Book and answers each
// buyer in the codes of the release it is served in.
func TestIn(t *testing.T) {
	_, sp30 := specseller.Open(t, "3.0.26")
	_, sp31 := specseller.Open(t, "3.1.19")
	b := proposal.New(sp30, proposal.Options{})
	if err := b.In(sp31).Offer("buyer-a", plan); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Get("buyer-a", plan.ID); !ok {
		t.Fatal("a proposal offered through In is not in the Book")
	}
	if _, err := b.Finalize("buyer-a", "nope"); code(err) != "REFERENCE_NOT_FOUND" {
		t.Errorf("3.0: %v", err)
	}
	if _, err := b.In(sp31).Finalize("buyer-a", "nope"); code(err) != "PROPOSAL_NOT_FOUND" {
		t.Errorf("3.1: %v", err)
	}
	if b.In(nil) != b || b.In(sp30) != b {
		t.Error("In of the Book's own spec is not the Book")
	}
}

func TestOfferChecks(t *testing.T) {
	_, sp := specseller.Open(t, "3.0.26")
	b := proposal.New(sp, proposal.Options{})
	for name, p := range map[string]proposal.Proposal{
		"no id":                 {Allocations: plan.Allocations},
		"no allocations":        {ID: "x"},
		"sum below 100":         {ID: "x", Allocations: []proposal.Allocation{{ProductID: "a", Percentage: 60}, {ProductID: "b", Percentage: 30}}},
		"negative share":        {ID: "x", Allocations: []proposal.Allocation{{ProductID: "a", Percentage: 110}, {ProductID: "b", Percentage: -10}}},
		"allocation no product": {ID: "x", Allocations: []proposal.Allocation{{Percentage: 100}}},
	} {
		if err := b.Offer("buyer-a", p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Shares add up to the total to the cent, whatever the percentages.
func TestSplit(t *testing.T) {
	for _, c := range []struct {
		total    float64
		percents []float64
		want     []float64
	}{
		{100, []float64{100.0 / 3, 100.0 / 3, 100.0 / 3}, []float64{33.34, 33.33, 33.33}},
		{50000, []float64{60, 40}, []float64{30000, 20000}},
		{0.01, []float64{50, 50}, []float64{0.01, 0}},
		{999.99, []float64{12.5, 87.5}, []float64{125, 874.99}},
	} {
		got := proposal.Split(c.total, c.percents)
		sum := 0.0
		for i := range got {
			sum += got[i]
			if got[i] != c.want[i] {
				t.Errorf("Split(%v, %v) = %v, want %v", c.total, c.percents, got, c.want)
				break
			}
		}
		if int64(sum*100+0.5) != int64(c.total*100+0.5) {
			t.Errorf("Split(%v): sum %v", c.total, sum)
		}
	}
}
