package testcontroller_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/testcontroller"
)

// A seller's sandbox serves the controller with the scenarios it supports
// as hooks; the controller answers everything else. Real sellers pass
// their generated package's adcp.Spec() and the version's schema tree
// (seller.Options.Schemas), which adds the version's rules.
func Example() {
	spec := registry.NewSpec(registry.SpecConfig{Version: "3.0.26", Tools: registry.Tools{{Name: "comply_test_controller"}}})
	srv, err := seller.New(spec, seller.Options{})
	if err != nil {
		panic(err)
	}
	ctl, err := testcontroller.New(srv, testcontroller.Options{
		// Every principal of this seller is a sandbox one; a call naming a
		// production account is still refused.
		Sandbox: func(_ context.Context, c *seller.Call) bool {
			named, sandbox := testcontroller.AccountSandbox(c)
			return !named || sandbox
		},
	})
	if err != nil {
		panic(err)
	}
	status := map[string]string{"mb_1": "pending_start"}
	ctl.Handle(testcontroller.ForceMediaBuyStatus, func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		prev, ok := status[r.Params.MediaBuyID]
		switch {
		case !ok:
			return nil, testcontroller.NotFound("Media buy " + r.Params.MediaBuyID + " not found")
		case prev == "completed" || prev == "canceled":
			return nil, testcontroller.InvalidTransition(prev, prev+" is terminal")
		}
		status[r.Params.MediaBuyID] = r.Params.Status
		return testcontroller.Transition{Previous: prev, Current: r.Params.Status}, nil
	})

	for _, args := range []string{
		`{"scenario":"list_scenarios"}`,
		`{"scenario":"force_media_buy_status","params":{"media_buy_id":"mb_1","status":"completed"}}`,
		`{"scenario":"force_media_buy_status","params":{"media_buy_id":"mb_1","status":"active"}}`,
		`{"scenario":"force_media_buy_status","params":{"media_buy_id":"mb_9","status":"active"}}`,
		`{"scenario":"simulate_delivery","params":{"media_buy_id":"mb_1"}}`,
		`{"scenario":"list_scenarios","account":{"account_id":"acct_live","sandbox":false}}`,
	} {
		a := srv.Serve(context.Background(), testcontroller.ToolName, &seller.Call{Arguments: json.RawMessage(args)})
		fmt.Println(string(a.Body))
	}
	// Output:
	// {"adcp_version":"3.0","status":"completed","success":true,"scenarios":["force_media_buy_status"]}
	// {"adcp_version":"3.0","status":"completed","success":true,"previous_state":"pending_start","current_state":"completed"}
	// {"adcp_version":"3.0","status":"completed","success":false,"error":"INVALID_TRANSITION","error_detail":"completed is terminal","current_state":"completed"}
	// {"adcp_version":"3.0","status":"completed","success":false,"error":"NOT_FOUND","error_detail":"Media buy mb_9 not found","current_state":null}
	// {"adcp_version":"3.0","status":"completed","success":false,"error":"UNKNOWN_SCENARIO","error_detail":"Scenario not supported: simulate_delivery"}
	// {"adcp_version":"3.0","status":"completed","success":false,"error":"FORBIDDEN","error_detail":"comply_test_controller acts on sandbox accounts only"}
}
