package testcontroller_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/testcontroller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// FuzzController: whatever a buyer sends, the controller answers one JSON
// object with a boolean success (or an AdCP error for bytes the server
// refuses), and hooks see only parameters read from valid JSON.
func FuzzController(f *testing.F) {
	for _, s := range []string{
		`{"scenario":"list_scenarios"}`,
		`{"scenario":"force_creative_status","params":{"creative_id":"c","status":"approved"}}`,
		`{"scenario":"simulate_delivery","params":{"media_buy_id":"m","impressions":1e400,"clicks":-1,"reported_spend":{"amount":"x"}}}`,
		`{"scenario":"seed_product","params":{"fixture":[1],"product_id":7}}`,
		`{"scenario":5,"params":null,"account":{"sandbox":"true"}}`,
		`{"scenario":"nonexistent"}`,
	} {
		f.Add([]byte(s))
	}
	spec := registry.NewSpec(registry.SpecConfig{Version: "fuzz", Tools: registry.Tools{{Name: testcontroller.ToolName}}})
	srv, err := seller.New(spec, seller.Options{})
	if err != nil {
		f.Fatal(err)
	}
	ctl, err := testcontroller.New(srv, testcontroller.Options{Sandbox: func(_ context.Context, c *seller.Call) bool {
		named, sandbox := testcontroller.AccountSandbox(c)
		return !named || sandbox
	}})
	if err != nil {
		f.Fatal(err)
	}
	echo := func(_ context.Context, r *testcontroller.ScenarioRequest) (testcontroller.Success, error) {
		if r.Params.Fixture != nil && !wire.Lenient(r.Params.Fixture).IsObject() {
			return nil, testcontroller.InvalidParams("fixture is not an object")
		}
		return testcontroller.Transition{Previous: r.Params.Status, Current: r.Params.CreativeID}, nil
	}
	for _, s := range []string{testcontroller.ForceCreativeStatus, testcontroller.SimulateDelivery, testcontroller.SeedProduct} {
		ctl.Handle(s, echo)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		a := srv.Serve(context.Background(), testcontroller.ToolName, &seller.Call{Arguments: json.RawMessage(args)})
		if a.Error != nil {
			return
		}
		body, err := wire.ParseLenient(a.Body)
		if err != nil || !body.IsObject() {
			t.Fatalf("answer %q is not an object", a.Body)
		}
		if s := string(body.Get("success")); s != "true" && s != "false" {
			t.Fatalf("answer %s has no boolean success", a.Body)
		}
	})
}
