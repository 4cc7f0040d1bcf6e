package totalbudget_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/totalbudget"
)

// code is err's AdCP code and field ("" for nil).
func code(err error) string {
	if err == nil {
		return ""
	}
	var e *adcperr.Error
	if !errors.As(err, &e) {
		return "not an AdCP error: " + err.Error()
	}
	return e.Code + " " + e.Field
}

func TestScale(t *testing.T) {
	three := []totalbudget.PackageBudget{{ID: "a", Budget: 100, Active: true}, {ID: "b", Budget: 200, Active: true}, {ID: "c", Budget: 50}}
	for _, tc := range []struct {
		name     string
		pkgs     []totalbudget.PackageBudget
		currency string
		total    totalbudget.Amount
		want     []float64 // the active packages' budgets
		err      string
	}{
		{"doubled", three, "USD", totalbudget.Amount{600, "USD"}, []float64{200, 400}, ""},
		{"cents, remainder on the last", three, "USD", totalbudget.Amount{100, "USD"}, []float64{33.33, 66.67}, ""},
		{"yen have no minor unit", []totalbudget.PackageBudget{{ID: "a", Budget: 1, Active: true}, {ID: "b", Budget: 2, Active: true}}, "JPY",
			totalbudget.Amount{1000, "JPY"}, []float64{333, 667}, ""},
		{"dinars have three digits", []totalbudget.PackageBudget{{ID: "a", Budget: 1, Active: true}, {ID: "b", Budget: 2, Active: true}}, "KWD",
			totalbudget.Amount{1, "KWD"}, []float64{0.333, 0.667}, ""},
		{"another currency", three, "USD", totalbudget.Amount{600, "EUR"}, nil, "VALIDATION_ERROR total_budget.currency"},
		{"zero", three, "USD", totalbudget.Amount{0, "USD"}, nil, "VALIDATION_ERROR total_budget.amount"},
		{"negative", three, "USD", totalbudget.Amount{-5, "USD"}, nil, "VALIDATION_ERROR total_budget.amount"},
		{"nothing active", []totalbudget.PackageBudget{{ID: "c", Budget: 50}}, "USD", totalbudget.Amount{10, "USD"}, nil, "VALIDATION_ERROR total_budget.amount"},
		{"a package left with nothing", []totalbudget.PackageBudget{{ID: "a", Budget: 1, Active: true}, {ID: "b", Budget: 1000, Active: true}}, "USD",
			totalbudget.Amount{1, "USD"}, nil, "VALIDATION_ERROR total_budget.amount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]totalbudget.PackageBudget(nil), tc.pkgs...)
			got, err := totalbudget.Scale(tc.pkgs, tc.currency, tc.total)
			if code(err) != tc.err {
				t.Fatalf("error %q, want %q", code(err), tc.err)
			}
			if !reflect.DeepEqual(tc.pkgs, before) {
				t.Errorf("the packages given were changed: %+v", tc.pkgs)
			}
			if err != nil {
				return
			}
			var budgets []float64
			for _, p := range got {
				budgets = append(budgets, p.Budget)
			}
			if !reflect.DeepEqual(budgets, tc.want) {
				t.Errorf("budgets %v, want %v", budgets, tc.want)
			}
			if s := totalbudget.Sum(got); s != tc.total.Amount {
				t.Errorf("scaled sum %v, want %v", s, tc.total.Amount)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	pkgs := []totalbudget.PackageBudget{{ID: "a", Budget: 100, Active: true}, {ID: "b", Budget: 200, Active: true}, {ID: "c", Budget: 50}}
	for _, tc := range []struct {
		name  string
		total totalbudget.Amount
		ch    totalbudget.Changes
		err   string
	}{
		{"a budget changed", totalbudget.Amount{350, "USD"}, totalbudget.Changes{Budgets: map[string]float64{"a": 150}}, ""},
		{"a package canceled and one added", totalbudget.Amount{275, "USD"}, totalbudget.Changes{Budgets: map[string]float64{"b": 0}, Added: 175}, ""},
		{"within a cent's rounding", totalbudget.Amount{300.001, "USD"}, totalbudget.Changes{}, ""},
		{"inconsistent", totalbudget.Amount{400, "USD"}, totalbudget.Changes{Budgets: map[string]float64{"a": 150}}, "VALIDATION_ERROR total_budget.amount"},
		{"a canceled package's budget does not count", totalbudget.Amount{350, "USD"}, totalbudget.Changes{}, "VALIDATION_ERROR total_budget.amount"},
		{"another currency", totalbudget.Amount{300, "EUR"}, totalbudget.Changes{}, "VALIDATION_ERROR total_budget.currency"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := totalbudget.Match(pkgs, "USD", tc.total, tc.ch); code(err) != tc.err {
				t.Errorf("error %q, want %q", code(err), tc.err)
			}
		})
	}
}

func TestReadAmount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want *totalbudget.Amount
		err  string
	}{
		{"", nil, ""},
		{`{"amount":1200.5,"currency":"USD"}`, &totalbudget.Amount{1200.5, "USD"}, ""},
		{`1200`, nil, "INVALID_REQUEST total_budget"},
		{`{"amount":"1200","currency":"USD"}`, nil, "INVALID_REQUEST total_budget"},
	} {
		got, err := totalbudget.ReadAmount([]byte(tc.in))
		if code(err) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v %q, want %+v %q", tc.in, got, code(err), tc.want, tc.err)
		}
	}
}

func TestMinorUnits(t *testing.T) {
	for c, want := range map[string]int{"USD": 2, "EUR": 2, "JPY": 0, "KRW": 0, "KWD": 3, "CLF": 4} {
		if got := totalbudget.MinorUnits(c); got != want {
			t.Errorf("%s: %d, want %d", c, got, want)
		}
	}
}
