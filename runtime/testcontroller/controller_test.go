package testcontroller_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/testcontroller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// rig is a seller of a published version with a controller whose hooks
// keep one creative and one media buy.
type rig struct {
	srv *seller.Server
	ctl *testcontroller.Controller
	log *bytes.Buffer
	// account is the member every call sends: 3.1 and later require a
	// sandbox assertion, 3.0 declares none and admits it.
	account string
}

// newRig builds the rig; capabilities is the base of the automatic
// get_adcp_capabilities answer, if any.
func newRig(t *testing.T, version string, capabilities ...string) *rig {
	t.Helper()
	tree, sp := specseller.Open(t, version)
	log := &bytes.Buffer{}
	cfg := seller.Options{Schemas: tree, ValidateResponses: true, Logger: slog.New(slog.NewTextHandler(log, nil))}
	if len(capabilities) > 0 {
		cfg.Capabilities = json.RawMessage(capabilities[0])
	}
	srv, err := seller.New(sp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := testcontroller.New(srv, testcontroller.Options{Sandbox: func(_ context.Context, c *seller.Call) bool {
		named, sandbox := testcontroller.AccountSandbox(c)
		return c.Principal.ID == "sandbox-buyer" && (!named || sandbox)
	}})
	if err != nil {
		t.Fatal(err)
	}
	creative := "processing"
	ctl.Handle(testcontroller.ForceCreativeStatus, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.CreativeID != "cr_1" {
			return nil, testcontroller.NotFound("Creative " + r.Params.CreativeID + " not found")
		}
		if creative == "archived" && r.Params.Status == "processing" {
			return nil, testcontroller.InvalidTransition(creative, "archived creatives cannot be reprocessed")
		}
		prev := creative
		creative = r.Params.Status
		return testcontroller.Transition{Previous: prev, Current: creative, Message: "moved"}, nil
	})
	ctl.Handle(testcontroller.SimulateDelivery, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.Impressions == nil || r.Params.ReportedSpend == nil || r.Params.ReportedSpend.Currency != "USD" {
			return nil, testcontroller.InvalidParams("want impressions and a USD spend")
		}
		return testcontroller.Simulation{Simulated: json.RawMessage(`{"impressions":10}`), Cumulative: json.RawMessage(`{"impressions":20}`)}, nil
	})
	ctl.Handle(testcontroller.SeedProduct, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if !wire.Lenient(r.Params.Fixture).Get("delivery_type").Present() {
			return nil, errors.New("db down: password=hunter2")
		}
		return testcontroller.Seeded{Message: "seeded " + r.Params.ProductID}, nil
	})
	ctl.Handle(testcontroller.ForceCreateMediaBuyArm, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		return testcontroller.Directive{Arm: r.Params.Arm, TaskID: r.Params.TaskID}, nil
	})
	ctl.Handle(testcontroller.ForceMediaBuyStatus, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		return nil, &adcperr.Error{Code: "RATE_LIMITED", Message: "slow down", RetryAfter: 2}
	})
	return &rig{srv: srv, ctl: ctl, log: log, account: `"account":{"brand":{"domain":"test.example"},"operator":"test.example","sandbox":true},`}
}

func (r *rig) call(principal, args string) *seller.Answer {
	return r.srv.Serve(context.Background(), testcontroller.ToolName, &seller.Call{
		Arguments: json.RawMessage(args), Principal: seller.Principal{ID: principal}, Transport: seller.TransportMCP})
}

// TestController plays the deterministic_testing storyboard's controller
// checks, and the rest of each arm, on every version with the tool.
func TestController(t *testing.T) {
	for _, v := range specseller.Versions {
		t.Run(v.Version, func(t *testing.T) {
			r := newRig(t, v.Version)
			for _, c := range []struct {
				name, principal, args string
				want                  string // the response body
			}{
				{name: "list_scenarios", args: `{"scenario":"list_scenarios","context":{"correlation_id":"c-1"}}`,
					want: `{"context":{"correlation_id":"c-1"},"success":true,"scenarios":["force_create_media_buy_arm","force_creative_status","force_media_buy_status","seed_product","simulate_delivery"]}`},
				{name: "unknown scenario", args: `{"scenario":"nonexistent_scenario","params":{}}`,
					want: `{"success":false,"error":"UNKNOWN_SCENARIO","error_detail":"Scenario not supported: nonexistent_scenario"}`},
				{name: "defined but not hooked", args: `{"scenario":"force_session_status","params":{"session_id":"s","status":"terminated"}}`,
					want: `{"success":false,"error":"UNKNOWN_SCENARIO","error_detail":"Scenario not supported: force_session_status"}`},
				{name: "missing params", args: `{"scenario":"force_creative_status","params":{}}`,
					want: `{"success":false,"error":"INVALID_PARAMS","error_detail":"/params: missing required property \"creative_id\" (and 1 more)"}`},
				{name: "status outside the enum", args: `{"scenario":"force_creative_status","params":{"creative_id":"cr_1","status":"gone"}}`,
					want: `"error":"INVALID_PARAMS","error_detail":"/params/status: `},
				{name: "nonexistent entity", args: `{"scenario":"force_creative_status","params":{"creative_id":"comply-test-nonexistent","status":"approved"}}`,
					want: `{"success":false,"error":"NOT_FOUND","error_detail":"Creative comply-test-nonexistent not found","current_state":null}`},
				{name: "transition", args: `{"scenario":"force_creative_status","params":{"creative_id":"cr_1","status":"archived"}}`,
					want: `{"success":true,"previous_state":"processing","current_state":"archived","message":"moved"}`},
				{name: "invalid transition", args: `{"scenario":"force_creative_status","params":{"creative_id":"cr_1","status":"processing"}}`,
					want: `{"success":false,"error":"INVALID_TRANSITION","error_detail":"archived creatives cannot be reprocessed","current_state":"archived"}`},
				{name: "simulation", args: `{"scenario":"simulate_delivery","params":{"media_buy_id":"mb_1","impressions":10,"reported_spend":{"amount":1.5,"currency":"USD"}}}`,
					want: `{"success":true,"simulated":{"impressions":10},"cumulative":{"impressions":20}}`},
				{name: "hook refuses params", args: `{"scenario":"simulate_delivery","params":{"media_buy_id":"mb_1"}}`,
					want: `{"success":false,"error":"INVALID_PARAMS","error_detail":"want impressions and a USD spend"}`},
				{name: "seed", args: `{"scenario":"seed_product","params":{"product_id":"p_1","fixture":{"delivery_type":"guaranteed"}}}`,
					want: `{"success":true,"message":"seeded p_1"}`},
				{name: "hook fails", args: `{"scenario":"seed_product","params":{"product_id":"p_1","fixture":{}}}`,
					want: `{"success":false,"error":"INTERNAL_ERROR","error_detail":"The scenario could not run"}`},
				{name: "directive", args: `{"scenario":"force_create_media_buy_arm","params":{"arm":"submitted","task_id":"task_q2"}}`,
					want: `{"success":true,"forced":{"arm":"submitted","task_id":"task_q2"}}`},
				{name: "directive without its task id", args: `{"scenario":"force_create_media_buy_arm","params":{"arm":"submitted"}}`,
					want: `"error":"INVALID_PARAMS"`},
				{name: "not a sandbox principal", principal: "live-buyer", args: `{"scenario":"list_scenarios"}`,
					want: `{"success":false,"error":"FORBIDDEN","error_detail":"comply_test_controller acts on sandbox accounts only"}`},
			} {
				t.Run(c.name, func(t *testing.T) {
					principal := c.principal
					if principal == "" {
						principal = "sandbox-buyer"
					}
					args := "{" + r.account + c.args[1:]
					a := r.call(principal, args)
					if a.Error != nil {
						t.Fatalf("AdCP error %+v", a.Error)
					}
					body := strings.Replace(string(a.Body), `"status":"completed",`, "", 1)      // the envelope's, the server's
					body = strings.Replace(body, `"adcp_version":"`+r.srv.Release()+`",`, "", 1) // the release served, the server's
					if !strings.Contains(body, c.want) {
						t.Errorf("got  %s\nwant %s", a.Body, c.want)
					}
				})
			}
			if strings.Contains(r.log.String(), "response not sent") {
				t.Errorf("a response failed the %s schema:\n%s", v.Version, r.log)
			}
			if !strings.Contains(r.log.String(), "hunter2") {
				t.Errorf("the hook's error was not logged:\n%s", r.log)
			}
			// A hook's AdCP error is sent as such.
			if a := r.call("sandbox-buyer", "{"+r.account+`"scenario":"force_media_buy_status","params":{"media_buy_id":"mb_1","status":"active"}}`); a.Error == nil || a.Error.Code != "RATE_LIMITED" {
				t.Errorf("AdCP error from a hook: %s %+v", a.Body, a.Error)
			}
			// A call naming a production account is refused.
			if a := r.call("sandbox-buyer", `{"account":{"account_id":"acct_live","sandbox":false},"scenario":"list_scenarios"}`); !strings.Contains(string(a.Body), `"FORBIDDEN"`) && (a.Error == nil) {
				t.Errorf("production account: %s", a.Body)
			}
		})
	}
}

// The 3.1 schemas require the sandbox assertion (account.sandbox: true):
// without it the controller answers INVALID_PARAMS, never acting.
func TestAccountAssertionRequired(t *testing.T) {
	for _, version := range []string{"3.1.19", "3.2.0-beta.5"} {
		r := newRig(t, version)
		a := r.call("sandbox-buyer", `{"scenario":"force_creative_status","params":{"creative_id":"cr_1","status":"approved"}}`)
		if !strings.Contains(string(a.Body), `"error":"INVALID_PARAMS","error_detail":"(root): missing required property \"account\""`) {
			t.Errorf("%s: %s", version, a.Body)
		}
	}
	// 3.0 has no account member, so buyers that send only declared
	// members (the JavaScript SDK over MCP) send none.
	r := newRig(t, "3.0.26")
	if a := r.call("sandbox-buyer", `{"scenario":"force_creative_status","params":{"creative_id":"cr_1","status":"approved"}}`); !strings.Contains(string(a.Body), `"success":true`) {
		t.Errorf("3.0.26 without account: %s", a.Body)
	}
}

// The compliance_testing capability block lists the hooked scenarios the
// version admits there: AdCP 3.0's enum has only force_*_status and
// simulate_*; later versions take any name.
func TestCapabilityBlock(t *testing.T) {
	// What AdCP 3.0 asks of a media-buy seller's capabilities.
	const base30 = `{"supported_protocols":["media_buy"],"account":{"supported_billing":["operator"]},"media_buy":{"supported_pricing_models":["cpm"]}}`
	for _, c := range []struct{ version, want string }{
		{"3.0.26", `"compliance_testing":{"scenarios":["force_creative_status","force_media_buy_status","simulate_delivery"]}`},
		{"3.1.19", `"compliance_testing":{"scenarios":["force_create_media_buy_arm","force_creative_status","force_media_buy_status","seed_product","simulate_delivery"]}`},
		{"3.2.0-beta.5", `"compliance_testing":{"scenarios":["force_create_media_buy_arm","force_creative_status","force_media_buy_status","seed_product","simulate_delivery"]}`},
	} {
		base := base30
		if c.version != "3.0.26" {
			base = `{"status":"completed","supported_protocols":["media_buy"]}`
		}
		r := newRig(t, c.version, base)
		a := r.srv.Serve(context.Background(), "get_adcp_capabilities", &seller.Call{Arguments: json.RawMessage(`{}`)})
		if a.Error != nil || !strings.Contains(string(a.Body), c.want) {
			t.Errorf("%s: %s %+v\nwant %s\n%s", c.version, a.Body, a.Error, c.want, r.log)
		}
		if strings.Contains(string(a.Body), "compliance_testing\"") && strings.Contains(string(a.Body), `"supported_protocols":["compliance`) {
			t.Errorf("%s: compliance testing claimed as a protocol: %s", c.version, a.Body)
		}
	}
	// Without a qualifying hook there is no block (its scenarios need one
	// at least).
	tree, sp := specseller.Open(t, "3.0.26")
	srv, err := seller.New(sp, seller.Options{Schemas: tree, ValidateResponses: true, Capabilities: json.RawMessage(base30)})
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := testcontroller.New(srv, testcontroller.Options{Sandbox: func(context.Context, *seller.Call) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	ctl.Handle(testcontroller.SeedProduct, func(context.Context, *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		return testcontroller.Seeded{}, nil
	})
	a := srv.Serve(context.Background(), "get_adcp_capabilities", &seller.Call{Arguments: json.RawMessage(`{}`)})
	if a.Error != nil || strings.Contains(string(a.Body), "compliance_testing") {
		t.Errorf("block without a capability scenario: %s %+v", a.Body, a.Error)
	}
}

func TestRegistrationMistakes(t *testing.T) {
	r := newRig(t, "3.0.26")
	for name, f := range map[string]func(){
		"list_scenarios": func() {
			r.ctl.Handle(testcontroller.ListScenarios, func(context.Context, *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
				return nil, nil
			})
		},
		"nil hook": func() { r.ctl.Handle(testcontroller.SeedPlan, nil) },
		"a 3.1 scenario on 3.0": func() {
			r.ctl.Handle(testcontroller.ForceCreativePurge, func(context.Context, *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
				return nil, nil
			})
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
	if r.ctl.Admits(testcontroller.ForceCreativePurge) || !newRig(t, "3.1.19").ctl.Admits(testcontroller.ForceCreativePurge) {
		t.Error("Admits: force_creative_purge is 3.1's")
	}
	tree, sp := specseller.Open(t, "3.0.26")
	srv, _ := seller.New(sp, seller.Options{Schemas: tree})
	if _, err := testcontroller.New(srv, testcontroller.Options{}); err == nil {
		t.Error("a controller without a Sandbox function")
	}
}
