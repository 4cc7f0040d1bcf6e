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
	"github.com/adcpgen/adcpgen/runtime/stale"
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
//     task stays submitted until force_task_completion);
//   - force_task_completion records the result the caller gives as its
//     task's final answer (runtime/testcontroller's TaskCompletion);
//   - from 3.1, each release's own controller adds
//     force_get_products_arm (the caller's next brief-mode get_products
//     answers submitted under the task id it names, open until
//     force_task_completion) and force_upstream_unavailable (the next
//     get_products is served from the catalog held, with the
//     STALE_RESPONSE advisory; the upstream then recovers), and
//     seed_account adds a sandbox account of the caller's under the id
//     the runner names, which list_accounts then lists.
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
	ctl.Handle(testcontroller.SeedProduct, func(ctx context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.ProductID == "" {
			return nil, testcontroller.InvalidParams("seed_product needs params.product_id")
		}
		if err := s.catalog.seedProduct(r.Params.ProductID, servedSpec(ctx).Version(), members(r.Params.Fixture)); err != nil {
			return nil, testcontroller.InvalidParams("product " + strconv.Quote(r.Params.ProductID) + ": " + err.Error())
		}
		return testcontroller.Seeded{Message: "Product " + r.Params.ProductID + " seeded."}, nil
	})
	ctl.Handle(testcontroller.SeedPricingOption, func(ctx context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.ProductID == "" || r.Params.PricingOptionID == "" {
			return nil, testcontroller.InvalidParams("seed_pricing_option needs params.product_id and params.pricing_option_id")
		}
		err := s.catalog.seedPricing(r.Params.ProductID, r.Params.PricingOptionID, servedSpec(ctx).Version(), members(r.Params.Fixture))
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
		return s.forceArm(adcp.Tools.CreateMediaBuy.Name(), principal(r), r.Params)
	})
	// Every task of this seller is started by its 3.0.26 handlers (s.srv),
	// whichever release the buyer is served in.
	ctl.Handle(testcontroller.ForceTaskCompletion, testcontroller.TaskCompletion(s.srv))
	// The scenarios of later releases, on their servers' controllers.
	if ctl.Admits(testcontroller.ForceGetProductsArm) {
		ctl.Handle(testcontroller.ForceGetProductsArm, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
			return s.forceArm(adcp.Tools.GetProducts.Name(), principal(r), r.Params)
		})
	}
	if ctl.Admits(testcontroller.SeedAccount) {
		ctl.Handle(testcontroller.SeedAccount, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
			return s.seedAccount(principal(r), r.Params.AccountID, r.Params.Fixture)
		})
	}
	if ctl.Admits(testcontroller.ForceUpstreamUnavailable) {
		ctl.Handle(testcontroller.ForceUpstreamUnavailable, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
			return s.forceUpstreamDown(principal(r), r.Params)
		})
	}
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

// forcedArm is a force_create_media_buy_arm or force_get_products_arm
// directive waiting for the principal's next sandbox call of the tool.
type forcedArm struct {
	taskID  string
	message string
}

// started is the message of the submitted answer of a task started under
// the directive's id (err, StartTaskWithID's): the directive's, else
// fallback; a taken id is the buyer's to correct.
func (arm forcedArm) started(err error, fallback string) (string, error) {
	switch {
	case errors.Is(err, seller.ErrTaskIDTaken):
		return "", refuse("INVALID_REQUEST", "The forced task id "+strconv.Quote(arm.taskID)+" is taken; force another one", "")
	case err != nil:
		return "", err
	case arm.message != "":
		return arm.message, nil
	}
	return fallback, nil
}

// heldKey keys s.held: a forced task of the principal's.
func heldKey(principal, taskID string) string { return principal + "\x00" + taskID }

// armKey keys s.forced: a directive is the principal's, for one tool.
func armKey(tool, principal string) string { return tool + "\x00" + principal }

// forceArm registers a directive for the principal's next sandbox call of
// tool. Only the submitted arm is implemented.
func (s *sales) forceArm(tool, principal string, params testcontroller.Params) (testcontroller.Success, error) {
	if params.Arm != "submitted" {
		return nil, testcontroller.InvalidParams("this sandbox forces the submitted arm only (params.arm: submitted)")
	}
	if params.TaskID == "" || len(params.TaskID) > seller.MaxTaskIDLength {
		return nil, testcontroller.InvalidParams("the submitted arm needs params.task_id (1-128 characters)")
	}
	s.mu.Lock()
	s.forced[armKey(tool, principal)] = forcedArm{taskID: params.TaskID, message: params.Message}
	s.mu.Unlock()
	return testcontroller.Directive{Arm: "submitted", TaskID: params.TaskID,
		Message: "Directive registered: the next " + tool + " answers submitted with task " + params.TaskID + "."}, nil
}

// lapseDirectives drops the principal's directives for tools other than
// tool: a call of another tool came first (sandboxSession).
func (s *sales) lapseDirectives(principal, tool string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range []string{adcp.Tools.CreateMediaBuy.Name(), adcp.Tools.GetProducts.Name()} {
		if t != tool {
			delete(s.forced, armKey(t, principal))
		}
	}
	if tool != adcp.Tools.GetProducts.Name() {
		delete(s.down, principal)
	}
}

// takeForcedArm consumes the principal's directive for tool, if any.
func (s *sales) takeForcedArm(tool, principal string) (forcedArm, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	arm, ok := s.forced[armKey(tool, principal)]
	delete(s.forced, armKey(tool, principal))
	return arm, ok
}

// upstreamDown is a force_upstream_unavailable directive: the upstream
// the principal's next get_products cannot reach, since when.
type upstreamDown struct {
	name  string
	since time.Time
}

// forceUpstreamDown marks the principal's get_products upstream (this
// sandbox has one, its inventory service) unreachable. The next
// get_products is answered from the catalog the seller holds, with the
// STALE_RESPONSE advisory (staleAnswer); the sandbox's upstream then
// recovers, so discovery later in a run is fresh again.
func (s *sales) forceUpstreamDown(principal string, params testcontroller.Params) (testcontroller.Success, error) {
	raw := wire.Lenient(params.Raw)
	tool, _ := raw.Get("tool").AsString()
	if tool != "*" && tool != adcp.Tools.GetProducts.Name() {
		return nil, testcontroller.InvalidParams("this sandbox's only upstream is get_products' inventory service (params.tool: get_products or *)")
	}
	name, _ := raw.Get("upstream_name").AsString()
	if name == "" {
		name = "inventory-service"
	}
	s.mu.Lock()
	s.down[principal] = upstreamDown{name: name, since: s.now()}
	s.mu.Unlock()
	return testcontroller.Transition{Previous: "available", Current: "unavailable",
		Message: "Upstream " + name + " of get_products is unreachable; the next get_products is served from cache."}, nil
}

// takeUpstreamDown consumes the principal's force_upstream_unavailable
// directive, if any.
func (s *sales) takeUpstreamDown(principal string) (upstreamDown, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.down[principal]
	delete(s.down, principal)
	return d, ok
}

// productsSubmitted answers a sandbox get_products the test controller
// forced into the submitted arm: the task under the directive's id, open
// until force_task_completion gives its result.
func (s *sales) productsSubmitted(ctx context.Context, arm forcedArm) (*adcp.GetProductsResult, error) {
	_, err := seller.StartTaskWithID(ctx, adcp.Tools.GetProducts, arm.taskID)
	message, err := arm.started(err, "Product curation queued.")
	if err != nil {
		return nil, err
	}
	return &adcp.GetProductsResult{Status: "submitted", Message: message, Submitted: &adcp.GetProductsSubmitted{}}, nil
}

// staleAdvisory is the STALE_RESPONSE advisory of a get_products answered
// from the catalog the seller holds while its upstream d is unreachable
// (runtime/stale): the held catalog predates the outage, and this sandbox
// sets its discovery a freshness target of none, so any age is stale.
// None on 3.0, which has no such code.
func staleAdvisory(ctx context.Context, d upstreamDown, now time.Time) []adcp.Error {
	e := stale.Advisory(servedSpec(ctx), stale.Served{Field: "products", CacheAge: now.Sub(d.since), Upstream: stale.Upstream{Name: d.name},
		Cause: &stale.Cause{Code: "SERVICE_UNAVAILABLE", Message: "The inventory service did not answer"}})
	if e == nil {
		return nil
	}
	return wireErrors(e)
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
	for _, v := range []struct {
		name string
		to   **float64
	}{{"conversion_value", &add.ConversionValue}, {"commissionable_value", &add.CommissionableValue}} {
		if f, err := strconv.ParseFloat(string(raw.Get(v.name)), 64); err == nil {
			*v.to = &f
		}
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
		t.ConversionValue = sum(t.ConversionValue, add.ConversionValue)
		t.CommissionableValue = sum(t.CommissionableValue, add.CommissionableValue)
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

// sum is a running total with add (nil: none given yet).
func sum(total, add *float64) *float64 {
	switch {
	case add == nil:
		return total
	case total == nil:
		return ptr(*add)
	}
	return ptr(*total + *add)
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
