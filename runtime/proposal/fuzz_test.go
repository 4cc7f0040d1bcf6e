package proposal_test

import (
	"math"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/proposal"
)

// FuzzSplit: whatever the total and the weights, the shares are whole
// cents, none negative, each within a cent of its exact share, and they
// add up to the total to the cent.
func FuzzSplit(f *testing.F) {
	f.Add(10000.0, []byte{60, 40})
	f.Add(0.01, []byte{1, 1, 1})
	f.Add(33333.33, []byte{1, 2, 3, 4, 5, 6, 7})
	f.Fuzz(func(t *testing.T, total float64, weights []byte) {
		if math.IsNaN(total) || total < 0 || total > 1e12 || len(weights) == 0 || len(weights) > 64 {
			return
		}
		sum := 0
		for _, w := range weights {
			sum += int(w)
		}
		if sum == 0 {
			return
		}
		percents := make([]float64, len(weights))
		for i, w := range weights {
			percents[i] = float64(w) * 100 / float64(sum)
		}
		shares := proposal.Split(total, percents)
		cents := int64(math.Round(total * 100))
		var got int64
		for i, s := range shares {
			c := int64(math.Round(s * 100))
			if math.Abs(s*100-float64(c)) > 1e-6*math.Max(1, math.Abs(s*100)) || c < 0 {
				t.Fatalf("share %d is %v, not whole cents", i, s)
			}
			if exact := float64(cents) * percents[i] / 100; math.Abs(float64(c)-exact) > 1+1e-6*exact {
				t.Fatalf("share %d is %d cents, exact %v", i, c, exact)
			}
			got += c
		}
		if got != cents {
			t.Fatalf("shares %v add up to %d cents, total %d", shares, got, cents)
		}
	})
}

// FuzzBook runs any sequence of offers, finalizations, quotes,
// acceptances and clock steps (one byte each) for two buyers and checks
// the lifecycle: a quote or acceptance succeeds only for a committed
// proposal within its hold, and then its packages cover the proposal's
// allocations; a proposal is accepted at most once; quotes change nothing;
// one buyer never sees another's proposal; every refusal carries the
// version's code.
func FuzzBook(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 3})
	f.Add([]byte{0, 1, 4, 4, 4, 4, 3, 1, 3})
	f.Add([]byte{0, 8, 1, 9, 3, 11})
	_, sp := specseller.Open(f, "3.1.19")
	f.Fuzz(func(t *testing.T, ops []byte) {
		now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		b := proposal.New(sp, proposal.Options{Hold: time.Hour, Now: func() time.Time { return now }})
		plan := proposal.Proposal{ID: "p", Allocations: []proposal.Allocation{
			{ProductID: "ctv", PricingOptionID: "cpm", Percentage: 60}, {ProductID: "olv", PricingOptionID: "cpm", Percentage: 40}}}
		accepted := map[string]bool{}
		for _, op := range ops {
			who := []string{"a", "b"}[op>>7]
			before, had := b.Get(who, "p")
			var err error
			switch op % 8 {
			case 0:
				err = b.Offer(who, plan)
			case 1:
				_, err = b.Finalize(who, "p")
			case 2, 3:
				var pkgs []proposal.Package
				if op%8 == 2 {
					pkgs, err = b.Quote(who, "p", 1000)
				} else {
					pkgs, err = b.Accept(who, "p", 1000, "mb_"+who)
				}
				ok := had && before.Status == proposal.Committed && now.Before(before.ExpiresAt)
				if (err == nil) != ok {
					t.Fatalf("op %d on %+v (had %v, now %v): %v", op, before, had, now, err)
				}
				if err == nil {
					if len(pkgs) != 2 || pkgs[0].Budget+pkgs[1].Budget != 1000 || pkgs[0].ProductID != "ctv" {
						t.Fatalf("packages %+v", pkgs)
					}
					if op%8 == 3 {
						if accepted[who] {
							t.Fatalf("%s's proposal accepted twice", who)
						}
						accepted[who] = true
					}
				}
			case 4:
				now = now.Add(20 * time.Minute)
			default:
				if _, ok := b.Get(who, "nope"); ok {
					t.Fatal("an unknown proposal found")
				}
			}
			if err != nil && code(err) == "error" && op%8 != 0 {
				t.Fatalf("op %d: %v is not an AdCP error", op, err)
			}
			after, has := b.Get(who, "p")
			if op%8 == 2 && (after.Status != before.Status || !after.ExpiresAt.Equal(before.ExpiresAt)) {
				t.Fatalf("a quote changed %+v into %+v", before, after)
			}
			if op%8 != 0 && accepted[who] && (!has || after.Status != proposal.Accepted) {
				t.Fatalf("%s's accepted proposal is now %+v", who, after)
			}
			if accepted[who] && op%8 == 0 {
				accepted[who] = false // offered again: a new draft
			}
		}
		for _, who := range []string{"a", "b"} {
			if p, ok := b.Get(who, "p"); ok && p.Status == proposal.Accepted && p.MediaBuyID != "mb_"+who {
				t.Fatalf("%s's proposal accepted into %s", who, p.MediaBuyID)
			}
		}
	})
}
