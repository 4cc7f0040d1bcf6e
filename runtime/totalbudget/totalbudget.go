// Package totalbudget applies a media buy's total budget, the hard
// aggregate lifetime budget AdCP 3.2 adds to update_media_buy, in fixed
// mode (the buy's total is the sum of its active packages' budgets):
//
//   - supplied alone, the seller scales every active package budget in
//     proportion to its current budget, atomically, refusing the whole
//     request if any derived budget cannot be accepted (Scale);
//   - supplied with package changes, the amount must equal the sum the
//     changes leave, VALIDATION_ERROR otherwise (Match);
//   - either way its currency is the buy's: an update does not
//     redenominate a buy.
//
// Amounts are rounded to the currency's minor unit (ISO 4217: none for
// JPY, three digits for KWD), the remainder left on the last package, so
// the scaled budgets add up to the amount exactly.
package totalbudget

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Amount is update_media_buy's total_budget.
type Amount struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// PackageBudget is a package's committed budget; a canceled package is not
// active and counts for nothing.
type PackageBudget struct {
	ID     string
	Budget float64
	Active bool
}

// Changes are the package changes an update makes beside its total:
// Budgets sets packages' budgets by id (0 for one it cancels); Added is
// the sum of its new packages' budgets.
type Changes struct {
	Budgets map[string]float64
	Added   float64
}

// ReadAmount decodes a request's total_budget member (nil when absent): an
// object of amount and currency, INVALID_REQUEST otherwise.
func ReadAmount(member []byte) (*Amount, error) {
	if !wire.Lenient(member).Present() {
		return nil, nil
	}
	var a Amount
	if err := json.Unmarshal(member, &a); err != nil || !wire.Lenient(member).IsObject() {
		return nil, refuse("INVALID_REQUEST", "total_budget is not an amount and a currency", "total_budget")
	}
	return &a, nil
}

// Sum is the buy's total: its active packages' budgets added up.
func Sum(pkgs []PackageBudget) float64 {
	t := 0.0
	for _, p := range pkgs {
		if p.Active {
			t += p.Budget
		}
	}
	return t
}

// Match checks a total supplied with package changes against the buy's
// packages and currency: positive, in the buy's currency, and equal (to
// the currency's minor unit) to the sum the changes leave.
func Match(pkgs []PackageBudget, currency string, total Amount, ch Changes) error {
	if err := checkAmount(currency, total); err != nil {
		return err
	}
	sum := ch.Added
	for _, p := range pkgs {
		if !p.Active {
			continue
		}
		if v, ok := ch.Budgets[p.ID]; ok {
			sum += v
		} else {
			sum += p.Budget
		}
	}
	if round(sum, total.Currency) != round(total.Amount, total.Currency) {
		return refuse("VALIDATION_ERROR", fmt.Sprintf("total_budget %g does not match the package budgets the update leaves (%g)", total.Amount, sum), "total_budget.amount")
	}
	return nil
}

// Scale checks a total supplied alone and returns the active packages
// with their budgets scaled to it, in proportion to their current ones
// and in the currency's minor unit, the rounding left on the last. It
// refuses the whole update (VALIDATION_ERROR) when the buy has no active
// budget to scale or a scaled budget would not be positive.
func Scale(pkgs []PackageBudget, currency string, total Amount) ([]PackageBudget, error) {
	if err := checkAmount(currency, total); err != nil {
		return nil, err
	}
	cur := Sum(pkgs)
	if cur <= 0 {
		return nil, refuse("VALIDATION_ERROR", "The buy has no active package budget to scale", "total_budget.amount")
	}
	var out []PackageBudget
	for _, p := range pkgs {
		if p.Active {
			out = append(out, p)
		}
	}
	left := round(total.Amount, total.Currency)
	for i := range out {
		if i == len(out)-1 {
			out[i].Budget = round(left, total.Currency)
		} else {
			out[i].Budget = round(out[i].Budget*total.Amount/cur, total.Currency)
			left -= out[i].Budget
		}
		if !(out[i].Budget > 0) || math.IsInf(out[i].Budget, 0) {
			return nil, refuse("VALIDATION_ERROR", fmt.Sprintf("total_budget %g leaves package %s no budget", total.Amount, out[i].ID), "total_budget.amount")
		}
	}
	return out, nil
}

// checkAmount: positive, in the buy's currency.
func checkAmount(currency string, total Amount) error {
	if total.Currency != currency {
		return refuse("VALIDATION_ERROR", "total_budget is in "+total.Currency+"; the buy is in "+currency+" and an update does not redenominate it", "total_budget.currency")
	}
	if !(total.Amount > 0) || math.IsInf(total.Amount, 0) {
		return refuse("VALIDATION_ERROR", "total_budget must be positive", "total_budget.amount")
	}
	return nil
}

func refuse(code, message, field string) error {
	return &adcperr.Error{Code: code, Message: message, Field: field}
}
