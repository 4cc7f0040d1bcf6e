package sellergov_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/sellergov"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// sync_governance replaces an account's agents; the seller picks the one
// covering budget authority when it commits spend.
func ExampleRegistry() {
	reg := sellergov.NewRegistry()
	reg.Sync("buyer", "acmeoutdoor.example", []sellergov.GovernanceAgent{
		{URL: "https://brand.pinnacle.example/mcp", Scheme: "Bearer", Credentials: "…", Categories: []string{"brand_policy"}},
		{URL: "https://budget.pinnacle.example/mcp", Scheme: "Bearer", Credentials: "…", Categories: []string{"budget_authority"}},
	})
	a, _ := reg.For("buyer", "acmeoutdoor.example", "budget_authority")
	fmt.Println(a.URL)
	_, ok := reg.For("another-buyer", "acmeoutdoor.example", "budget_authority")
	fmt.Println(ok)
	// Output:
	// https://budget.pinnacle.example/mcp
	// false
}

// create_media_buy consults the account's agent before committing: the
// dialer reaches it over MCP with its credentials, through the client that
// refuses internal addresses; conditions the seller can meet are applied
// and checked again.
func ExampleChecker_Govern() {
	var spec *registry.Spec // adcp.Spec() of your generated package
	dial := func(ctx context.Context, a sellergov.GovernanceAgent) (buyer.Transport, io.Closer, error) {
		hc := untrusted.NewHTTPClient(untrusted.ClientOptions{})
		base := hc.Transport
		hc.Transport = roundTripper(func(r *http.Request) (*http.Response, error) {
			r = r.Clone(r.Context())
			r.Header.Set("Authorization", a.Scheme+" "+a.Credentials)
			return base.RoundTrip(r)
		})
		s, err := mcpclient.ConnectHTTP(ctx, a.URL, hc, mcpclient.ConnectOptions{})
		if err != nil {
			return nil, nil, err
		}
		return s, s, nil
	}
	gov, err := sellergov.NewChecker(spec, sellergov.CheckerOptions{Dial: dial, Caller: "https://seller.example/mcp"})
	if err != nil {
		return
	}
	agent := sellergov.GovernanceAgent{URL: "https://budget.pinnacle.example/mcp", Scheme: "Bearer", Credentials: "…"}
	d, err := gov.Govern(context.Background(), agent, sellergov.CheckRequest{
		PlanID: "plan_q2", Tool: "create_media_buy", PurchaseType: "media_buy", Phase: "purchase",
		Payload: json.RawMessage(`{"packages":[{"product_id":"ctv","budget":25000}]}`),
	}, func(conds []sellergov.Condition, payload json.RawMessage) (json.RawMessage, error) {
		return nil, fmt.Errorf("this seller meets no conditions") // or adjust the payload
	})
	if err != nil {
		return // GOVERNANCE_DENIED or GOVERNANCE_UNAVAILABLE, for the buyer
	}
	fmt.Println(d.GovernanceContext) // kept with the buy, sent on later checks
}
