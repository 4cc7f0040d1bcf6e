package main

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A buy's total budget (AdCP 3.2). From 3.2 create_media_buy and
// get_media_buys answer a buy's aggregate budget (total_budget, the sum of
// its live packages' budgets in fixed mode), and update_media_buy takes
// one: alone, every live package is scaled in proportion to its budget;
// beside package changes, it must equal the resulting sum
// (VALIDATION_ERROR otherwise). The 3.0.26 handlers keep package
// budgets; update_media_buy reads 3.2's total_budget as the buyer sent it.

// totalUpdate is update_media_buy's total_budget.
type totalUpdate struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// liveTotal is the sum of b's packages' budgets, canceled ones left out.
func (b *buy) liveTotal() float64 {
	t := 0.0
	for _, p := range b.packages {
		if !p.canceled {
			t += p.budget
		}
	}
	return t
}

// checkTotal checks an update's total_budget against b before anything is
// applied: its currency is the buy's, and with package changes it equals
// the sum they leave (changed, the package budgets the update sets, by
// package id; added, the new packages' budgets).
func checkTotal(b *buy, t *totalUpdate, changed map[string]float64, added float64, scaling bool) error {
	if t.Currency != "" && t.Currency != b.currency {
		return refuse("VALIDATION_ERROR", "total_budget is in "+t.Currency+"; the buy is in "+b.currency+" and an update does not redenominate it", "total_budget.currency")
	}
	if t.Amount <= 0 {
		return refuse("VALIDATION_ERROR", "total_budget must be positive", "total_budget.amount")
	}
	if scaling {
		if b.liveTotal() <= 0 {
			return refuse("VALIDATION_ERROR", "The buy has no live package budget to scale", "total_budget.amount")
		}
		return nil
	}
	sum := added
	for _, p := range b.packages {
		if p.canceled {
			continue
		}
		if v, ok := changed[p.id]; ok {
			sum += v
		} else {
			sum += p.budget
		}
	}
	if math.Abs(sum-t.Amount) > 0.005 {
		return refuse("VALIDATION_ERROR", fmt.Sprintf("total_budget %g does not match the package budgets the update leaves (%g)", t.Amount, sum), "total_budget.amount")
	}
	return nil
}

// scaleTo scales b's live package budgets in proportion to reach amount,
// in cents, the rounding left on the last; it returns the scaled packages.
func (b *buy) scaleTo(amount float64) []*pkg {
	cur := b.liveTotal()
	var live []*pkg
	for _, p := range b.packages {
		if !p.canceled {
			live = append(live, p)
		}
	}
	left := amount
	for i, p := range live {
		if i == len(live)-1 {
			p.budget = math.Round(left*100) / 100
			break
		}
		p.budget = math.Round(p.budget*amount/cur*100) / 100
		left -= p.budget
	}
	return live
}

// totalBudgets gives a completed 3.2 answer's buys their total_budget:
// the answer itself (create_media_buy, member ""), or each of an array
// member's (get_media_buys' media_buys), from their packages' budgets.
func totalBudgets(member string) func(task.Status, json.RawMessage) (json.RawMessage, error) {
	withTotal := func(buy map[string]json.RawMessage) bool {
		if _, ok := buy["total_budget"]; ok {
			return false
		}
		var pkgs []struct {
			Budget   *float64 `json:"budget"`
			Canceled bool     `json:"canceled"`
		}
		if json.Unmarshal(buy["packages"], &pkgs) != nil || len(pkgs) == 0 {
			return false
		}
		sum := 0.0
		for _, p := range pkgs {
			if p.Budget == nil {
				return false
			}
			if !p.Canceled {
				sum += *p.Budget
			}
		}
		buy["total_budget"] = objectJSON(sum)
		return true
	}
	return func(status task.Status, p json.RawMessage) (json.RawMessage, error) {
		if status != task.Completed {
			return p, nil
		}
		if member != "" {
			return editArray(p, member, withTotal)
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(p, &obj) != nil || !wire.Lenient(p).Get("media_buy_id").Present() || !withTotal(obj) {
			return p, nil
		}
		return json.Marshal(obj)
	}
}
