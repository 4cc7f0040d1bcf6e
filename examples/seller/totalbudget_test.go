package main

import "testing"

// 3.2's total budget: create_media_buy and get_media_buys answer the
// packages' sum; update_media_buy's total_budget alone scales every
// package in proportion, and beside package changes must equal the sum
// they leave (VALIDATION_ERROR, nothing applied).
func TestTotalBudget(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	v := `"adcp_version":"3.2-beta.5",`
	r := call(t, cs, "create_media_buy", `{`+v+`"idempotency_key":"total-budget-key-0001",`+acme+`,"brand":{"domain":"acmeoutdoor.example"},`+
		`"start_time":"asap","end_time":"2099-07-31T23:59:59Z","packages":[`+
		`{"product_id":"test-product","pricing_option_id":"test-pricing","budget":60000},`+
		`{"product_id":"test-product","pricing_option_id":"test-pricing","budget":40000}]}`)
	id, first := pick(r, "media_buy_id"), pick(r, "packages", "0", "package_id")
	if r.Error != nil || pick(r, "total_budget") != "100000" {
		t.Fatalf("create: %s %+v", r.Data, r.Error)
	}
	r = call(t, cs, "update_media_buy", `{`+v+`"idempotency_key":"total-budget-key-0002",`+acme+`,"media_buy_id":"`+id+`","total_budget":{"amount":50000,"currency":"USD"}}`)
	if r.Error != nil || pick(r, "total_budget") != "50000" || pick(r, "affected_packages", "0", "budget") != "30000" || pick(r, "affected_packages", "1", "budget") != "20000" {
		t.Fatalf("scale: %s %+v", r.Data, r.Error)
	}
	r = call(t, cs, "update_media_buy", `{`+v+`"idempotency_key":"total-budget-key-0003",`+acme+`,"media_buy_id":"`+id+`","total_budget":{"amount":60000,"currency":"USD"},`+
		`"packages":[{"package_id":"`+first+`","budget":99999}]}`)
	if r.Error == nil || r.Error.Code != "VALIDATION_ERROR" {
		t.Fatalf("a total the packages do not sum to: %s %+v", r.Data, r.Error)
	}
	r = call(t, cs, "get_media_buys", `{`+v+acme+`,"media_buy_ids":["`+id+`"]}`)
	if pick(r, "media_buys", "0", "total_budget") != "50000" || pick(r, "media_buys", "0", "packages", "0", "budget") != "30000" {
		t.Fatalf("read back: %s", r.Data)
	}
}
