package main

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// The sandbox's test controller (comply_test_controller, served with
// -sandbox only: AdCP says sellers must not expose it in production). It
// refuses calls naming a production account (FORBIDDEN) and lets the
// compliance runner set up what its storyboards need:
//
//   - seed_product and seed_pricing_option add products to the catalog
//     (after the seller's own; fixture members the runner leaves out get
//     defaults, AdCP 2 channel names their AdCP 3 ones);
//   - force_create_media_buy_arm makes the caller's next sandbox
//     create_media_buy answer submitted with the task id it names (the
//     task completes on the first status poll, as any async buy here);
//   - simulate_delivery records delivery figures on one of the caller's
//     media buys and answers the running totals.
//
// Other scenarios answer UNKNOWN_SCENARIO, as the protocol says.

// sandboxScenarios are the scenarios this controller implements.
var sandboxScenarios = []adcp.ListScenariosSuccessScenario{
	adcp.ListScenariosSuccessScenarioForceCreateMediaBuyArm,
	adcp.ListScenariosSuccessScenarioSimulateDelivery,
	adcp.ListScenariosSuccessScenarioSeedProduct,
	adcp.ListScenariosSuccessScenarioSeedPricingOption,
}

// forcedArm is a force_create_media_buy_arm directive waiting for the
// principal's next sandbox create_media_buy.
type forcedArm struct {
	taskID  string
	message string
}

// deliveryTotals are a media buy's simulated delivery, summed.
type deliveryTotals struct {
	Impressions int64   `json:"impressions"`
	Clicks      int64   `json:"clicks"`
	Conversions int64   `json:"conversions"`
	Spend       float64 `json:"reported_spend"`
	Currency    string  `json:"currency,omitempty"`
}

// controllerFailure answers a scenario that cannot run.
func controllerFailure(code adcp.ControllerErrorValue, detail string) *adcp.ComplyTestControllerResponse {
	r := adcp.NewComplyTestControllerResponseControllerError(adcp.ControllerError{Error: code, ErrorDetail: &detail})
	return &r
}

// sandboxCall reports whether a controller call may act: one that names
// no account acts on the caller's sandbox (this seller serves the
// controller only as a sandbox; 3.0's request schema has no account, and
// buyers on the JavaScript SDK leave undeclared members out), one that
// names an account must name a sandbox account.
func sandboxCall(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return true
	}
	var ref adcp.AccountReference
	if adcp.Decode(raw, &ref) != nil || ref.Brand == nil {
		return false
	}
	return ref.Brand.Sandbox != nil && *ref.Brand.Sandbox
}

// complyTestController runs one scenario for the caller.
func (s *sales) complyTestController(ctx context.Context, req *adcp.ComplyTestControllerRequest) (*adcp.ComplyTestControllerResponse, error) {
	if !sandboxCall(req.AdditionalProperties["account"]) {
		return controllerFailure(adcp.ControllerErrorValueForbidden, "comply_test_controller acts on sandbox accounts only (account.sandbox: true)"), nil
	}
	p, _ := seller.PrincipalFrom(ctx)
	params := req.Params
	if params == nil {
		params = &adcp.ComplyTestControllerRequestParams{}
	}
	switch req.Scenario {
	case adcp.ComplyTestControllerRequestScenarioListScenarios:
		r := adcp.NewComplyTestControllerResponseListScenariosSuccess(adcp.ListScenariosSuccess{Scenarios: sandboxScenarios})
		return &r, nil
	case adcp.ComplyTestControllerRequestScenarioSeedProduct:
		if params.ProductID == nil || *params.ProductID == "" {
			return controllerFailure(adcp.ControllerErrorValueInvalidParams, "seed_product needs params.product_id"), nil
		}
		if err := s.catalog.seedProduct(*params.ProductID, params.Fixture); err != nil {
			return controllerFailure(adcp.ControllerErrorValueInvalidParams, "product "+strconv.Quote(*params.ProductID)+": "+err.Error()), nil
		}
		return seeded("Product " + *params.ProductID + " seeded."), nil
	case adcp.ComplyTestControllerRequestScenarioSeedPricingOption:
		if params.ProductID == nil || params.PricingOptionID == nil || *params.PricingOptionID == "" {
			return controllerFailure(adcp.ControllerErrorValueInvalidParams, "seed_pricing_option needs params.product_id and params.pricing_option_id"), nil
		}
		err := s.catalog.seedPricing(*params.ProductID, *params.PricingOptionID, params.Fixture)
		if errors.Is(err, errNoSeed) {
			return controllerFailure(adcp.ControllerErrorValueNotFound, "no sandbox product "+strconv.Quote(*params.ProductID)+" (seed_product first)"), nil
		}
		if err != nil {
			return controllerFailure(adcp.ControllerErrorValueInvalidParams, "pricing option "+strconv.Quote(*params.PricingOptionID)+": "+err.Error()), nil
		}
		return seeded("Pricing option " + *params.PricingOptionID + " seeded on " + *params.ProductID + "."), nil
	case adcp.ComplyTestControllerRequestScenarioForceCreateMediaBuyArm:
		return s.forceArm(p.ID, params), nil
	case adcp.ComplyTestControllerRequestScenarioSimulateDelivery:
		return s.simulateDelivery(p.ID, params), nil
	}
	return controllerFailure(adcp.ControllerErrorValueUnknownScenario, "Scenario not supported: "+string(req.Scenario)), nil
}

func seeded(message string) *adcp.ComplyTestControllerResponse {
	r := adcp.NewComplyTestControllerResponseSeedSuccess(adcp.SeedSuccess{Message: &message})
	return &r
}

// forceArm registers a directive for the principal's next sandbox
// create_media_buy. Only the submitted arm is implemented.
func (s *sales) forceArm(principal string, params *adcp.ComplyTestControllerRequestParams) *adcp.ComplyTestControllerResponse {
	if params.Arm == nil || *params.Arm != adcp.ComplyTestControllerRequestParamsArmSubmitted {
		return controllerFailure(adcp.ControllerErrorValueInvalidParams, "this sandbox forces the submitted arm only (params.arm: submitted)")
	}
	if params.TaskID == nil || *params.TaskID == "" || len(*params.TaskID) > seller.MaxTaskIDLength {
		return controllerFailure(adcp.ControllerErrorValueInvalidParams, "the submitted arm needs params.task_id (1-128 characters)")
	}
	arm := forcedArm{taskID: *params.TaskID}
	if params.Message != nil {
		arm.message = *params.Message
	}
	s.mu.Lock()
	s.forced[principal] = arm
	s.mu.Unlock()
	msg := "Directive registered: the next create_media_buy answers submitted with task " + arm.taskID + "."
	r := adcp.NewComplyTestControllerResponseForcedDirectiveSuccess(adcp.ForcedDirectiveSuccess{
		Forced:  adcp.ForcedDirectiveSuccessForced{Arm: adcp.ForcedDirectiveSuccessForcedArmSubmitted, TaskID: &arm.taskID},
		Message: &msg,
	})
	return &r
}

// takeForcedArm consumes the principal's directive, if any.
func (s *sales) takeForcedArm(principal string) (forcedArm, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	arm, ok := s.forced[principal]
	delete(s.forced, principal)
	return arm, ok
}

// simulateDelivery adds delivery figures to one of the principal's media
// buys.
func (s *sales) simulateDelivery(principal string, params *adcp.ComplyTestControllerRequestParams) *adcp.ComplyTestControllerResponse {
	if params.MediaBuyID == nil {
		return controllerFailure(adcp.ControllerErrorValueInvalidParams, "simulate_delivery needs params.media_buy_id")
	}
	var add deliveryTotals
	for _, v := range []struct {
		from *int64
		to   *int64
	}{{params.Impressions, &add.Impressions}, {params.Clicks, &add.Clicks}, {params.Conversions, &add.Conversions}} {
		if v.from != nil {
			*v.to = *v.from
		}
	}
	if rs := params.ReportedSpend; rs != nil {
		add.Spend, add.Currency = rs.Amount, rs.Currency
	}
	s.mu.Lock()
	owner, ok := s.buys[*params.MediaBuyID]
	var total deliveryTotals
	if ok && owner == principal {
		t := s.delivery[*params.MediaBuyID]
		if t == nil {
			t = &deliveryTotals{}
			s.delivery[*params.MediaBuyID] = t
		}
		t.Impressions += add.Impressions
		t.Clicks += add.Clicks
		t.Conversions += add.Conversions
		t.Spend += add.Spend
		if add.Currency != "" {
			t.Currency = add.Currency
		}
		total = *t
	}
	s.mu.Unlock()
	if !ok || owner != principal { // another buyer's buy is not found either
		return controllerFailure(adcp.ControllerErrorValueNotFound, "no media buy "+strconv.Quote(*params.MediaBuyID))
	}
	r := adcp.NewComplyTestControllerResponseSimulationSuccess(adcp.SimulationSuccess{
		Simulated: members(add), Cumulative: members(total),
	})
	return &r
}

// members splits v's JSON object into its members.
func members(v any) map[string]json.RawMessage {
	raw, _ := json.Marshal(v)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	return m
}
