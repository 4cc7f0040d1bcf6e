package main

import (
	"encoding/json"

	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/totalbudget"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A buy's total budget (AdCP 3.2). From 3.2 create_media_buy and
// get_media_buys answer a buy's aggregate budget (total_budget, the sum of
// its live packages' budgets in fixed mode), and update_media_buy takes
// one, applied by runtime/totalbudget. The 3.0.26 handlers keep package
// budgets; update_media_buy reads 3.2's total_budget as the buyer sent it.

// liveTotal is the sum of b's packages' budgets, canceled ones left out.
func (b *buy) liveTotal() float64 { return totalbudget.Sum(b.budgets()) }

// budgets are b's packages as runtime/totalbudget reads them.
func (b *buy) budgets() []totalbudget.PackageBudget {
	out := make([]totalbudget.PackageBudget, len(b.packages))
	for i, p := range b.packages {
		out[i] = totalbudget.PackageBudget{ID: p.id, Budget: p.budget, Active: !p.canceled}
	}
	return out
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
