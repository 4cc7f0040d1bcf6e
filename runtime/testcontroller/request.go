package testcontroller

import (
	"encoding/json"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// ScenarioRequest is one controller call, as a hook gets it: valid against the
// version's request schema, its scenario one the hook was registered for.
type ScenarioRequest struct {
	// Scenario is the scenario called.
	Scenario string
	// Params are the scenario's parameters.
	Params Params
	// Call is the call itself: the principal, the transport and the raw
	// arguments (Call.Member("account") for the account it names).
	Call *seller.Call
}

// Params are the members of the request's params object that AdCP 3.0
// defines, read from the buyer's bytes; a member that is absent (or of
// another type) is the zero value. Raw holds the whole object, for the
// members later versions add (purge_kind, vendor_metric_values, ...).
type Params struct {
	CreativeID        string
	AccountID         string
	MediaBuyID        string
	SessionID         string
	ProductID         string
	PricingOptionID   string
	PlanID            string
	FormatID          string
	Status            string
	RejectionReason   string
	TerminationReason string
	// Impressions, Clicks and Conversions are nil when absent.
	Impressions, Clicks, Conversions *int64
	// ReportedSpend is nil when absent.
	ReportedSpend *Money
	// SpendPercentage is nil when absent.
	SpendPercentage *float64
	Arm             string
	TaskID          string
	Message         string
	// Fixture is the seed_* scenarios' fixture object, nil when absent.
	Fixture json.RawMessage
	// Result is force_task_completion's completion payload, nil when
	// absent.
	Result json.RawMessage
	// Raw is the params object as received, nil when absent.
	Raw json.RawMessage
}

// Money is an amount in a currency.
type Money struct {
	Amount   float64
	Currency string
}

// readParams reads the params object p (already checked strictly by the
// server).
func readParams(p wire.Lenient) Params {
	str := func(k string) string { s, _ := p.Get(k).AsString(); return s }
	integer := func(k string) *int64 {
		f, ok := p.Get(k).Number()
		if !ok || f != float64(int64(f)) {
			return nil
		}
		n := int64(f)
		return &n
	}
	out := Params{
		CreativeID: str("creative_id"), AccountID: str("account_id"), MediaBuyID: str("media_buy_id"),
		SessionID: str("session_id"), ProductID: str("product_id"), PricingOptionID: str("pricing_option_id"),
		PlanID: str("plan_id"), FormatID: str("format_id"), Status: str("status"),
		RejectionReason: str("rejection_reason"), TerminationReason: str("termination_reason"),
		Impressions: integer("impressions"), Clicks: integer("clicks"), Conversions: integer("conversions"),
		Arm: str("arm"), TaskID: str("task_id"), Message: str("message"),
	}
	if f, ok := p.Get("spend_percentage").Number(); ok {
		out.SpendPercentage = &f
	}
	if rs := p.Get("reported_spend"); rs.IsObject() {
		amount, ok := rs.Get("amount").Number()
		currency, ok2 := rs.Get("currency").AsString()
		if ok && ok2 {
			out.ReportedSpend = &Money{Amount: amount, Currency: currency}
		}
	}
	if f := p.Get("fixture"); f.IsObject() {
		out.Fixture = f.Raw()
	}
	if r := p.Get("result"); r.IsObject() {
		out.Result = r.Raw()
	}
	if p.IsObject() {
		out.Raw = p.Raw()
	}
	return out
}
