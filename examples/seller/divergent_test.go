package main

import (
	"encoding/json"
	"testing"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDivergentFormats: a call that declares no release is answered in
// the latest (3.1), where a product whose format_ids and format_options
// disagree comes back flagged FORMAT_DECLARATION_DIVERGENT beside the
// products; a 3.1 package whose direct canonical selector leaves out a
// dimension its product fixes is UNSUPPORTED_FEATURE.
func TestDivergentFormats(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	const legacy = `{"agent_url":"https://creative.adcontextprotocol.org/","id":"display_300x250_image"}`
	seed := `{"scenario":"seed_product","params":{"product_id":"divergent","fixture":{"channels":["display"],"delivery_type":"guaranteed",` +
		`"format_ids":[` + legacy + `],"format_options":[{"format_kind":"image","format_option_id":"img","params":{"width":728,"height":90},` +
		`"v1_format_ref":[{"agent_url":"https://creative.adcontextprotocol.org/","id":"display_728x90_image"}]}],` +
		`"pricing_options":[{"pricing_option_id":"p","pricing_model":"cpm","currency":"USD","fixed_price":5}]}}}`
	if r := call(t, cs, "comply_test_controller", seed); pick(r, "success") != "true" {
		t.Fatalf("seed: %s %+v", r.Data, r.Error)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_products", Arguments: json.RawMessage(`{"buying_mode":"wholesale",` + acme + `}`)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	r := extract.New(adcp.Spec()).MCP(raw)
	if pick(r, "adcp_version") != "3.1" || pick(r, "products", "0", "product_id") != "divergent" ||
		pick(r, "errors", "0", "code") != "FORMAT_DECLARATION_DIVERGENT" || pick(r, "errors", "0", "source") != "producer" || pick(r, "errors", "0", "field") != "products[0]" {
		t.Errorf("undeclared get_products: %s %+v", r.Data, r.Error)
	}
	buy := func(key, selector string) *extract.Result {
		return call(t, cs, "create_media_buy", `{"adcp_version":"3.1","idempotency_key":"div-buy-000000000000`+key+`",`+acme+`,"brand":{"domain":"acmeoutdoor.example"},`+
			`"start_time":"asap","end_time":"2099-07-31T23:59:59Z","packages":[{"product_id":"divergent","budget":1000,"pricing_option_id":"p",`+selector+`}]}`)
	}
	if r := buy("1", `"format_kind":"image"`); r.Error == nil || r.Error.Code != "UNSUPPORTED_FEATURE" || r.Error.Field != "packages[0].params" {
		t.Errorf("a bare image selector: %s %+v", r.Data, r.Error)
	}
	if r := buy("2", `"format_kind":"image","params":{"width":728,"height":90}`); r.Error != nil || pick(r, "media_buy_id") == "" {
		t.Errorf("a complete selector: %s %+v", r.Data, r.Error)
	}
}
