package main

import (
	"slices"
	"strings"
	"testing"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// liveKey is the live buyer's key in tests.
const liveKey = "live-key-0123456789abcdef"

// The sandbox's comply_test_controller, driven over MCP through go-sdk's
// client as the compliance runner drives it: seeding a product the
// catalog then sells, forcing the next create_media_buy into the submitted
// arm under a chosen task id, simulating delivery, and what it refuses.
func TestSandboxController(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true; c.LiveAPIKey = liveKey })
	cs := mcpBuyer(t, base, testKey)
	ctrl := func(args string) (string, *wire.Lenient) {
		t.Helper()
		r := call(t, cs, "comply_test_controller", args)
		if r.Error != nil {
			t.Fatalf("comply_test_controller %s: %+v", args, r.Error)
		}
		var resp adcp.ComplyTestControllerResponse
		if err := wire.Unmarshal(r.Data, &resp); err != nil {
			t.Fatalf("%s: %v", r.Data, err)
		}
		v := wire.Lenient(r.Data)
		if string(v.Get("success")) == "false" {
			code, _ := v.Get("error").AsString()
			return code, &v
		}
		return "", &v
	}

	if _, v := ctrl(`{"scenario":"list_scenarios"}`); !strings.Contains(string(v.Get("scenarios")), `"force_create_media_buy_arm"`) {
		t.Fatalf("scenarios %s", *v)
	}
	for _, c := range []struct{ name, args, code string }{
		{"a production account", `{"scenario":"list_scenarios","account":{"brand":{"domain":"a.example"},"operator":"a.example","sandbox":false}}`, "FORBIDDEN"},
		{"a scenario this sandbox lacks", `{"scenario":"force_session_status","params":{"session_id":"s","status":"terminated"}}`, "UNKNOWN_SCENARIO"},
		{"a scenario 3.0 lacks", `{"scenario":"nonexistent_scenario","params":{}}`, "UNKNOWN_SCENARIO"},
		{"missing params", `{"scenario":"force_creative_status","params":{}}`, "INVALID_PARAMS"},
		{"a creative that does not exist", `{"scenario":"force_creative_status","params":{"creative_id":"c","status":"approved"}}`, "NOT_FOUND"},
		{"an account that does not exist", `{"scenario":"force_account_status","params":{"account_id":"acct_404","status":"suspended"}}`, "NOT_FOUND"},
		{"pricing for no product", `{"scenario":"seed_pricing_option","params":{"product_id":"nope","pricing_option_id":"p","fixture":{}}}`, "NOT_FOUND"},
		{"a bad pricing option", `{"scenario":"seed_product","params":{"product_id":"bad_q2","fixture":{"delivery_type":"guaranteed","format_ids":[{"id":"display_300x250"}]}}}`, ""},
		{"a bad pricing option", `{"scenario":"seed_pricing_option","params":{"product_id":"bad_q2","pricing_option_id":"p","fixture":{"pricing_model":"cpm"}}}`, "INVALID_PARAMS"},
		{"a seller's own product, as the storyboards seed it", `{"scenario":"seed_product","params":{"product_id":"test-product","fixture":` +
			`{"delivery_type":"non_guaranteed","channels":["display"],"format_ids":[{"id":"display_300x250"}]}}}`, ""},
		{"its pricing option again", `{"scenario":"seed_pricing_option","params":{"product_id":"test-product","pricing_option_id":"test-pricing",` +
			`"fixture":{"pricing_model":"cpm","currency":"USD","floor_price":1.0}}}`, ""},
		{"a fixture's partial reporting block", `{"scenario":"seed_product","params":{"product_id":"billing_q3","fixture":{"delivery_type":"guaranteed",` +
			`"channels":["video"],"format_ids":[{"id":"video_15s"}],"reporting_capabilities":{"available_metrics":["impressions","spend"],` +
			`"measurement_windows":[{"window_id":"post_sivt","duration_days":0,"expected_availability_days":3,"is_guarantee_basis":true}]}}}}`, ""},
		{"its pricing", `{"scenario":"seed_pricing_option","params":{"product_id":"billing_q3","pricing_option_id":"cpm_billing","fixture":` +
			`{"pricing_model":"cpm","currency":"USD","fixed_price":18.0}}}`, ""},
		{"a fixture with its pricing options (3.1's)", `{"scenario":"seed_product","params":{"product_id":"inline_q3","fixture":{"delivery_type":"guaranteed",` +
			`"channels":["display"],"format_ids":[{"id":"display_300x250"}],"pricing_options":[{"pricing_option_id":"cpm_inline","pricing_model":"cpm","currency":"USD","fixed_price":9}]}}}`, ""},
		{"a fixture's pricing option without its id", `{"scenario":"seed_product","params":{"product_id":"inline_q4","fixture":{"delivery_type":"guaranteed",` +
			`"channels":["display"],"format_ids":[{"id":"display_300x250"}],"pricing_options":[{"pricing_model":"cpm","currency":"USD","fixed_price":9}]}}}`, "INVALID_PARAMS"},
		{"the input-required arm", `{"scenario":"force_create_media_buy_arm","params":{"arm":"input-required"}}`, "INVALID_PARAMS"},
		{"delivery of an unknown buy", `{"scenario":"simulate_delivery","params":{"media_buy_id":"mb_404","impressions":1}}`, "NOT_FOUND"},
	} {
		if code, v := ctrl(c.args); code != c.code {
			t.Errorf("%s: %q, want %q (%s)", c.name, code, c.code, *v)
		}
	}

	// The live buyer may call the seller's tools but not the controller:
	// FORBIDDEN in the controller's own error shape, context echoed
	// (comply_controller_mode_gate).
	live := mcpBuyer(t, base, liveKey)
	if r := call(t, live, "list_creatives", `{}`); r.Error != nil {
		t.Fatalf("list_creatives as the live buyer: %+v", r.Error)
	}
	denied := call(t, live, "comply_test_controller", `{"scenario":"force_creative_status","params":{"creative_id":"comply-live-mode-probe-000","status":"approved"},"context":{"correlation_id":"gate"}}`)
	if v := wire.Lenient(denied.Data); denied.Error != nil || string(v.Get("success")) != "false" || !v.Get("error").StringIs("FORBIDDEN") ||
		!v.Get("context").Get("correlation_id").StringIs("gate") {
		t.Fatalf("the controller to the live buyer: %+v %s", denied.Error, denied.Data)
	}

	// Seeding: the runner's fixture, as its storyboards write it (AdCP 2's
	// "video" channel, format ids without an agent).
	ctrl(`{"scenario":"seed_product","params":{"product_id":"sports_preroll_q2","fixture":{"delivery_type":"guaranteed","channels":["video"],"format_ids":[{"id":"video_30s"}]}}}`)
	ctrl(`{"scenario":"seed_pricing_option","account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example","sandbox":true},` +
		`"params":{"product_id":"sports_preroll_q2","pricing_option_id":"cpm_guaranteed","fixture":{"pricing_model":"cpm","currency":"USD","fixed_price":22}}}`)
	// Discovery answers the products seeded last (fixtureset.go); an
	// earlier seeded product is still sold, found by id.
	var products, named adcp.GetProductsResponse
	if err := wire.Unmarshal(call(t, cs, "get_products", `{"buying_mode":"wholesale"}`).Data, &products); err != nil {
		t.Fatal(err)
	}
	if err := wire.Unmarshal(call(t, cs, "get_products", `{"buying_mode":"refine","refine":[{"scope":"product","product_id":"inline_q3"}]}`).Data, &named); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(named.Products, func(p adcp.Product) bool {
		return p.ProductID == "inline_q3" && p.PricingOptions[0].CPM != nil && p.PricingOptions[0].CPM.PricingOptionID == "cpm_inline"
	}) {
		t.Fatal("the product seeded with its pricing options is not sold")
	}
	i := slices.IndexFunc(products.Products, func(p adcp.Product) bool { return p.ProductID == "sports_preroll_q2" })
	if i != 0 || len(products.Products) != 1 {
		t.Fatalf("discovery after seeding: sports_preroll_q2 at %d of %d, want the only one", i, len(products.Products))
	}
	if p := products.Products[i]; len(p.Channels) != 1 || p.Channels[0] != "olv" || p.FormatIDs[0].AgentURL != defaultFormatAgent {
		t.Fatalf("seeded product %+v", p)
	}
	sandboxBuy := strings.Replace(strings.Replace(buyArgs("5a4d1b0c-0000-4000-8000-000000000001", "", ""),
		`"operator":"pinnacle-agency.example"`, `"operator":"pinnacle-agency.example","sandbox":true`, 1),
		`"product_id":"test-product","budget":5000,"pricing_option_id":"test-pricing"`, `"product_id":"sports_preroll_q2","budget":25000,"pricing_option_id":"cpm_guaranteed"`, 1)
	buy := call(t, cs, "create_media_buy", sandboxBuy)
	mediaBuy := member(buy, "media_buy_id")
	if buy.Error != nil || mediaBuy == "" {
		t.Fatalf("buying the seeded product: %+v %s", buy.Error, buy.Data)
	}

	// Delivery adds up.
	ctrl(`{"scenario":"simulate_delivery","params":{"media_buy_id":"` + mediaBuy + `","impressions":5000,"clicks":150,"reported_spend":{"amount":250,"currency":"USD"}}}`)
	if _, v := ctrl(`{"scenario":"simulate_delivery","params":{"media_buy_id":"` + mediaBuy + `","impressions":1000}}`); string(v.Get("cumulative").Get("impressions")) != "6000" ||
		string(v.Get("cumulative").Get("clicks")) != "150" || string(v.Get("simulated").Get("impressions")) != "1000" {
		t.Fatalf("delivery %s", *v)
	}

	// A viewability block, viewed_seconds and all (3.1's), is reported as
	// simulated.
	ctrl(`{"scenario":"simulate_delivery","params":{"media_buy_id":"` + mediaBuy + `","impressions":80000,"viewability":{"measurable_impressions":74000,` +
		`"viewable_impressions":59200,"viewable_rate":0.8,"viewed_seconds":4.3,"standard":"mrc"}}}`)
	if d := call(t, cs, "get_media_buy_delivery", `{"media_buy_ids":["`+mediaBuy+`"]}`); d.Error != nil ||
		string(wire.Lenient(d.Data).Get("media_buy_deliveries").Index(0).Get("totals").Get("viewability").Get("viewed_seconds")) != "4.3" {
		t.Fatalf("viewability: %+v %s", d.Error, d.Data)
	}
	if code, _ := ctrl(`{"scenario":"simulate_delivery","params":{"media_buy_id":"` + mediaBuy + `","viewability":{"viewable_rate":"high"}}}`); code != "INVALID_PARAMS" {
		t.Errorf("a malformed viewability block: %q", code)
	}

	// The forced arm: the next sandbox create_media_buy answers submitted
	// with the task id named, which tasks/get then knows; a production one
	// leaves the directive waiting.
	if _, v := ctrl(`{"scenario":"force_create_media_buy_arm","params":{"arm":"submitted","task_id":"task_async_q2","message":"Awaiting IO signature."}}`); !v.Get("forced").Get("task_id").StringIs("task_async_q2") {
		t.Fatalf("directive %s", *v)
	}
	if r := call(t, cs, "create_media_buy", buyArgs("5a4d1b0c-0000-4000-8000-000000000002", "", "")); member(r, "media_buy_id") == "" {
		t.Fatalf("a production buy took the directive: %s", r.Data)
	}
	sub := call(t, cs, "create_media_buy", strings.Replace(sandboxBuy, "000000000001", "000000000003", 1))
	if sub.Error != nil || member(sub, "status") != "submitted" || member(sub, "task_id") != "task_async_q2" || member(sub, "media_buy_id") != "" || member(sub, "message") != "Awaiting IO signature." {
		t.Fatalf("forced submitted: %+v %s", sub.Error, sub.Data)
	}
	// It stays submitted, polled or not, until force_task_completion
	// gives its result, which tasks/get then answers.
	if poll := call(t, cs, "tasks/get", `{"task_id":"task_async_q2","include_result":true}`); member(poll, "status") != "submitted" {
		t.Fatalf("tasks/get of the forced task before its completion: %s", poll.Data)
	}
	ctrl(`{"scenario":"force_task_completion","params":{"task_id":"task_async_q2","result":{"media_buy_id":"mb_forced_q2","status":"pending_creatives","packages":[]}}}`)
	if poll := call(t, cs, "tasks/get", `{"task_id":"task_async_q2","include_result":true}`); member(poll, "status") != "completed" ||
		!wire.Lenient(poll.Data).Get("result").Get("media_buy_id").StringIs("mb_forced_q2") {
		t.Fatalf("tasks/get of the forced task: %s", poll.Data)
	}
	// The same id again: taken, said plainly.
	ctrl(`{"scenario":"force_create_media_buy_arm","params":{"arm":"submitted","task_id":"task_async_q2"}}`)
	if again := call(t, cs, "create_media_buy", strings.Replace(sandboxBuy, "000000000001", "000000000004", 1)); again.Error == nil || again.Error.Code != "INVALID_REQUEST" {
		t.Fatalf("a taken forced id: %+v %s", again.Error, again.Data)
	}
}

// Without -sandbox the controller is not served.
func TestNoControllerOutsideSandbox(t *testing.T) {
	tools, err := mcpBuyer(t, startAgent(t), testKey).ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name == "comply_test_controller" {
			t.Fatal("comply_test_controller served outside the sandbox")
		}
	}
}
