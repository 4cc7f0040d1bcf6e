package main

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/testcontroller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The sandbox's test controller (comply_test_controller, served with
// -sandbox only: AdCP says sellers must not expose it in production).
// runtime/testcontroller does the protocol's part (list_scenarios, the
// compliance_testing capability block, UNKNOWN_SCENARIO and INVALID_PARAMS
// per the 3.0.26 schemas); this seller implements these scenarios as
// hooks on its own state:
//
//   - force_account_status, force_media_buy_status, force_creative_status
//     move an entity of the caller's along its lifecycle
//     (runtime/lifecycle: NOT_FOUND, INVALID_TRANSITION out of a final
//     state);
//   - simulate_delivery adds delivery figures to one of the caller's buys,
//     simulate_budget_spend sets how much of its budget is spent;
//   - seed_product and seed_pricing_option add products to the catalog
//     (after the seller's own; defaults for what the fixture leaves out,
//     AdCP 2 channel names mapped to AdCP 3's), seed_creative,
//     seed_media_buy and seed_creative_format add sandbox fixtures every
//     account of the caller sees;
//   - force_create_media_buy_arm makes the caller's next sandbox
//     create_media_buy answer submitted under the task id it names (the
//     task completes on the first status poll, as any async buy here).
//
// The controller refuses the live buyer (-live-api-key), whose accounts
// are production accounts, and a call that asserts a production account
// (account.sandbox: false): every other account here is a sandbox, and
// over MCP AdCP 3.0's controller schema declares no account, so buyers
// built on the JavaScript SDK send none.

// newController serves comply_test_controller on srv with the sales hooks.
func newController(srv *seller.Server, s *sales) error {
	ctl, err := testcontroller.New(srv, testcontroller.Options{Sandbox: func(_ context.Context, c *seller.Call) bool {
		return c.Principal.ID != livePrincipal && string(wire.Lenient(c.Member("account")).Get("sandbox")) != "false"
	}})
	if err != nil {
		return err
	}
	principal := func(r *testcontroller.ScenarioRequest) string { return r.Call.Principal.ID }
	transition := func(prev, current string, err error, what, id string) (testcontroller.Success, error) {
		var te *lifecycle.TransitionError
		var se *lifecycle.StatusError
		switch {
		case errors.Is(err, errNotFound):
			return nil, testcontroller.NotFound(what + " " + strconv.Quote(id) + " not found")
		case errors.As(err, &te):
			return nil, testcontroller.InvalidTransition(prev, te.Error())
		case errors.As(err, &se):
			return nil, testcontroller.InvalidParams(se.Error())
		case err != nil:
			return nil, err
		}
		return testcontroller.Transition{Previous: prev, Current: current, Message: what + " " + id + " moved from " + prev + " to " + current + "."}, nil
	}
	ctl.Handle(testcontroller.ForceAccountStatus, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		prev, err := s.forceAccount(principal(r), r.Params.AccountID, r.Params.Status)
		return transition(prev, r.Params.Status, err, "Account", r.Params.AccountID)
	})
	ctl.Handle(testcontroller.ForceMediaBuyStatus, func(ctx context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		prev, err := s.forceBuy(ctx, principal(r), r.Params.MediaBuyID, r.Params.Status)
		return transition(prev, r.Params.Status, err, "Media buy", r.Params.MediaBuyID)
	})
	ctl.Handle(testcontroller.ForceCreativeStatus, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		prev, err := s.forceCreative(principal(r), r.Params.CreativeID, r.Params.Status)
		return transition(prev, r.Params.Status, err, "Creative", r.Params.CreativeID)
	})
	ctl.Handle(testcontroller.SimulateDelivery, func(ctx context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		return s.simulateDelivery(ctx, principal(r), r.Params)
	})
	ctl.Handle(testcontroller.SimulateBudgetSpend, func(ctx context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		return s.simulateSpend(ctx, principal(r), r.Params)
	})
	ctl.Handle(testcontroller.SeedProduct, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.ProductID == "" {
			return nil, testcontroller.InvalidParams("seed_product needs params.product_id")
		}
		if err := s.catalog.seedProduct(r.Params.ProductID, members(r.Params.Fixture)); err != nil {
			return nil, testcontroller.InvalidParams("product " + strconv.Quote(r.Params.ProductID) + ": " + err.Error())
		}
		return testcontroller.Seeded{Message: "Product " + r.Params.ProductID + " seeded."}, nil
	})
	ctl.Handle(testcontroller.SeedPricingOption, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.ProductID == "" || r.Params.PricingOptionID == "" {
			return nil, testcontroller.InvalidParams("seed_pricing_option needs params.product_id and params.pricing_option_id")
		}
		err := s.catalog.seedPricing(r.Params.ProductID, r.Params.PricingOptionID, members(r.Params.Fixture))
		if errors.Is(err, errNoSeed) {
			return nil, testcontroller.NotFound("no sandbox product " + strconv.Quote(r.Params.ProductID) + " (seed_product first)")
		}
		if err != nil {
			return nil, testcontroller.InvalidParams("pricing option " + strconv.Quote(r.Params.PricingOptionID) + ": " + err.Error())
		}
		return testcontroller.Seeded{Message: "Pricing option " + r.Params.PricingOptionID + " seeded on " + r.Params.ProductID + "."}, nil
	})
	ctl.Handle(testcontroller.SeedCreative, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.CreativeID == "" {
			return nil, testcontroller.InvalidParams("seed_creative needs params.creative_id")
		}
		if err := s.seedCreative(principal(r), r.Params.CreativeID, wire.Lenient(r.Params.Fixture)); err != nil {
			return nil, testcontroller.InvalidParams(err.Error())
		}
		return testcontroller.Seeded{Message: "Creative " + r.Params.CreativeID + " seeded."}, nil
	})
	ctl.Handle(testcontroller.SeedMediaBuy, func(ctx context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.MediaBuyID == "" {
			return nil, testcontroller.InvalidParams("seed_media_buy needs params.media_buy_id")
		}
		f := wire.Lenient(r.Params.Fixture)
		status, _ := f.Get("status").AsString()
		currency, _ := f.Get("currency").AsString()
		if err := s.seedBuy(ctx, principal(r), r.Params.MediaBuyID, status, currency, f); err != nil {
			return nil, testcontroller.InvalidParams(err.Error())
		}
		return testcontroller.Seeded{Message: "Media buy " + r.Params.MediaBuyID + " seeded."}, nil
	})
	ctl.Handle(testcontroller.SeedCreativeFormat, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.FormatID == "" {
			return nil, testcontroller.InvalidParams("seed_creative_format needs params.format_id")
		}
		s.seedFormat(r.Params.FormatID, r.Params.Fixture)
		return testcontroller.Seeded{Message: "Format " + r.Params.FormatID + " seeded."}, nil
	})
	ctl.Handle(testcontroller.ForceCreateMediaBuyArm, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		return s.forceArm(principal(r), r.Params)
	})
	return nil
}

// members splits a fixture object into its members.
func members(fixture json.RawMessage) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	wire.Lenient(fixture).Members(func(k, v wire.Lenient) bool {
		name, _ := k.AsString()
		out[name] = v.Raw()
		return true
	})
	return out
}

// forcedArm is a force_create_media_buy_arm directive waiting for the
// principal's next sandbox create_media_buy.
type forcedArm struct {
	taskID  string
	message string
}

// forceArm registers a directive for the principal's next sandbox
// create_media_buy. Only the submitted arm is implemented.
func (s *sales) forceArm(principal string, params testcontroller.Params) (testcontroller.Success, error) {
	if params.Arm != "submitted" {
		return nil, testcontroller.InvalidParams("this sandbox forces the submitted arm only (params.arm: submitted)")
	}
	if params.TaskID == "" || len(params.TaskID) > seller.MaxTaskIDLength {
		return nil, testcontroller.InvalidParams("the submitted arm needs params.task_id (1-128 characters)")
	}
	s.mu.Lock()
	s.forced[principal] = forcedArm{taskID: params.TaskID, message: params.Message}
	s.mu.Unlock()
	return testcontroller.Directive{Arm: "submitted", TaskID: params.TaskID,
		Message: "Directive registered: the next create_media_buy answers submitted with task " + params.TaskID + "."}, nil
}

// takeForcedArm consumes the principal's directive, if any.
func (s *sales) takeForcedArm(principal string) (forcedArm, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	arm, ok := s.forced[principal]
	delete(s.forced, principal)
	return arm, ok
}

// simulateDelivery adds delivery figures to one of the principal's buys
// and answers the running totals.
func (s *sales) simulateDelivery(ctx context.Context, principal string, p testcontroller.Params) (testcontroller.Success, error) {
	var add deliveryTotals
	for _, v := range []struct {
		from *int64
		to   *int64
	}{{p.Impressions, &add.Impressions}, {p.Clicks, &add.Clicks}, {p.Conversions, &add.Conversions}} {
		if v.from != nil {
			*v.to = *v.from
		}
	}
	if rs := p.ReportedSpend; rs != nil {
		add.Spend, add.Currency = rs.Amount, rs.Currency
	}
	if v := wire.Lenient(p.Raw).Get("viewability"); v.IsObject() {
		var check adcp.DeliveryMetricsViewability
		if err := adcp.Decode(v.Raw(), &check); err != nil {
			return nil, testcontroller.InvalidParams("viewability: " + err.Error())
		}
		add.Viewability = v.Raw()
	}
	raw := wire.Lenient(p.Raw)
	if f := raw.Get("is_final"); f.Present() {
		final := string(f) == "true"
		add.IsFinal = &final
		add.FinalizedAt, _ = raw.Get("finalized_at").AsString()
	}
	add.MeasurementWindow, _ = raw.Get("measurement_window").AsString()
	if v := raw.Get("vendor_metric_values"); v.IsArray() {
		add.VendorMetricValues = v.Raw()
	}
	// A dated batch (3.2's delivery_date) is kept on its date's row too,
	// for get_media_buy_delivery's start_date and end_date to select.
	var day *deliveryDay
	if v := raw.Get("delivery_date"); v.Present() {
		date, ok := v.AsString()
		if _, err := time.Parse(time.DateOnly, date); !ok || err != nil {
			return nil, testcontroller.InvalidParams("delivery_date is not a calendar date (YYYY-MM-DD)")
		}
		day = &deliveryDay{Date: date, Impressions: add.Impressions, Clicks: add.Clicks, Conversions: add.Conversions, Spend: add.Spend}
	}
	var total deliveryTotals
	err := s.buys.update(ctx, principal, p.MediaBuyID, func(b *buy) error {
		if add.Currency != "" && add.Currency != b.currency {
			return testcontroller.InvalidParams("reported_spend is in " + add.Currency + "; media buy " + b.id + " is in " + b.currency)
		}
		t := &b.delivered
		t.Impressions += add.Impressions
		t.Clicks += add.Clicks
		t.Conversions += add.Conversions
		t.Spend += add.Spend
		t.Currency = b.currency
		if add.Viewability != nil {
			t.Viewability = add.Viewability
		}
		if add.IsFinal != nil {
			t.IsFinal, t.FinalizedAt = add.IsFinal, add.FinalizedAt
			if *add.IsFinal && t.FinalizedAt == "" {
				t.FinalizedAt = string(dateTime(s.now()))
			}
		}
		if add.MeasurementWindow != "" {
			t.MeasurementWindow = add.MeasurementWindow
		}
		if add.VendorMetricValues != nil {
			t.VendorMetricValues = add.VendorMetricValues
		}
		if day != nil {
			t.addDay(*day)
		}
		total = *t
		return nil
	})
	if errors.Is(err, errNoBuy) {
		return nil, testcontroller.NotFound("Media buy " + strconv.Quote(p.MediaBuyID) + " not found")
	}
	if err != nil {
		return nil, err
	}
	return testcontroller.Simulation{Simulated: figures(add), Cumulative: figures(total),
		Message: "Delivery simulated for " + p.MediaBuyID + "."}, nil
}

// figures is delivery as the controller reports it.
func figures(d deliveryTotals) json.RawMessage {
	out := map[string]any{"impressions": d.Impressions, "clicks": d.Clicks, "conversions": d.Conversions}
	if d.Currency != "" {
		out["reported_spend"] = map[string]any{"amount": d.Spend, "currency": d.Currency}
	}
	raw, _ := json.Marshal(out)
	return raw
}

// simulateSpend sets the share of a buy's budget spent.
func (s *sales) simulateSpend(ctx context.Context, principal string, p testcontroller.Params) (testcontroller.Success, error) {
	if p.MediaBuyID == "" || p.SpendPercentage == nil {
		return nil, testcontroller.InvalidParams("this sandbox simulates spend per media buy: params.media_buy_id and params.spend_percentage")
	}
	var budget, spent float64
	var currency string
	err := s.buys.update(ctx, principal, p.MediaBuyID, func(b *buy) error {
		budget = b.total()
		b.budgetSpent = math.Round(budget**p.SpendPercentage) / 100
		spent, currency = b.budgetSpent, b.currency
		return nil
	})
	if errors.Is(err, errNoBuy) {
		return nil, testcontroller.NotFound("Media buy " + strconv.Quote(p.MediaBuyID) + " not found")
	}
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(map[string]any{"spend_percentage": *p.SpendPercentage,
		"computed_spend": map[string]any{"amount": spent, "currency": currency},
		"budget":         map[string]any{"amount": budget, "currency": currency}})
	return testcontroller.Simulation{Simulated: raw, Message: "Budget of " + p.MediaBuyID + " spent to " + strconv.FormatFloat(*p.SpendPercentage, 'f', -1, 64) + "%."}, nil
}
