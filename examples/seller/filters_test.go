package main

import (
	"strconv"
	"testing"
)

// Read filters are conjunctive: get_media_buys applies an explicit
// status_filter to named buys too (the default ["active"] only to a
// listing), and list_creatives' media_buy_ids keeps the creatives
// assigned to those buys (a seeded buy's creative_assignments included).
func TestReadFilters(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	seed := func(args string) {
		t.Helper()
		if r := call(t, cs, "comply_test_controller", args); r.Error != nil || pick(r, "success") != "true" {
			t.Fatalf("%s: %s %+v", args, r.Data, r.Error)
		}
	}
	for _, c := range []string{"cr_match", "cr_other"} {
		seed(`{"scenario":"seed_creative","params":{"creative_id":"` + c + `","fixture":{"name":"` + c + `","status":"rejected","format_id":{"id":"display_300x250"}}}}`)
	}
	seed(`{"scenario":"seed_media_buy","params":{"media_buy_id":"mb_active","fixture":{"status":"active","packages":[{"package_id":"p1","creative_assignments":["cr_match"]}]}}}`)
	seed(`{"scenario":"seed_media_buy","params":{"media_buy_id":"mb_paused","fixture":{"status":"paused","packages":[{"package_id":"p2","creative_assignments":[{"creative_id":"cr_other"}]}]}}}`)

	r := call(t, cs, "get_media_buys", `{"media_buy_ids":["mb_active","mb_paused"],"status_filter":["paused"]}`)
	if pick(r, "media_buys", "0", "media_buy_id") != "mb_paused" || pick(r, "media_buys", "1") != "" {
		t.Errorf("named buys, status_filter paused: %s", r.Data)
	}
	r = call(t, cs, "get_media_buys", `{"media_buy_ids":["mb_active","mb_paused"]}`)
	if pick(r, "media_buys", "1", "media_buy_id") == "" {
		t.Errorf("named buys, no status_filter: %s", r.Data)
	}
	r = call(t, cs, "list_creatives", `{"filters":{"statuses":["rejected"],"media_buy_ids":["mb_active"]}}`)
	if pick(r, "creatives", "0", "creative_id") != "cr_match" || pick(r, "creatives", "1") != "" {
		t.Errorf("creatives of mb_active: %s", r.Data)
	}
}

// The native_in_feed format's constraints: a strict sync fails on the
// first violation (VALIDATION_ERROR, CREATIVE_VALUE_NOT_ALLOWED for a call
// to action off the list); a lenient one fails that creative alone.
func TestNativeConstraints(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	creative := func(title, size, cta string) string {
		return `{"creative_id":"n1","name":"n","format_id":{"agent_url":"https://x.example","id":"native_in_feed"},"assets":{` +
			`"title":{"asset_type":"text","content":"` + title + `"},` +
			`"main_image":{"asset_type":"image","url":"https://cdn.example/i.jpg",` + size + `},` +
			`"cta":{"asset_type":"text","content":"` + cta + `"}}}`
	}
	ok, long := "Trail Pro", "Trail Pro 3000 - The Ultimate Summit Companion for Serious Mountaineers Who Demand Peak Performance Everywhere"
	good, bad := `"width":1200,"height":627`, `"width":640,"height":480`
	n := 0
	sync := func(c, mode string) string {
		n++
		args := `{"idempotency_key":"native-test-key-00000` + string(rune('0'+n)) + `",` + acme + `,"creatives":[` + c + `]` + mode + `}`
		r := call(t, cs, "sync_creatives", args)
		if r.Error != nil {
			return r.Error.Code + " " + r.Error.Field
		}
		return pick(r, "creatives", "0", "action") + " " + pick(r, "creatives", "0", "errors", "0", "code")
	}
	for _, tc := range []struct{ creative, mode, want string }{
		{creative(ok, good, "LEARN_MORE"), "", "created "},
		{creative(long, good, "LEARN_MORE"), "", "VALIDATION_ERROR creatives[0].assets.title"},
		{creative(ok, bad, "LEARN_MORE"), "", "VALIDATION_ERROR creatives[0].assets.main_image"},
		{creative(ok, good, "EXPLORE_MORE"), "", "CREATIVE_VALUE_NOT_ALLOWED creatives[0].assets.cta"},
		{creative(ok, good, "EXPLORE_MORE"), `,"validation_mode":"lenient"`, "failed CREATIVE_VALUE_NOT_ALLOWED"},
	} {
		if got := sync(tc.creative, tc.mode); got != tc.want {
			t.Errorf("%s%s: got %q, want %q", tc.creative, tc.mode, got, tc.want)
		}
	}
}

// A seeded product whose fixture names no format sells its channel's
// standard one: a product that names nothing it accepts is dropped by
// buyers' SDKs (the compliance runner's among them).
func TestSeedDefaultFormat(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	for _, args := range []string{
		`{"scenario":"seed_product","params":{"product_id":"no_formats_olv","fixture":{"channels":["olv"],"pricing_options":[{"pricing_option_id":"p","pricing_model":"cpm","currency":"USD","fixed_price":5}]}}}`,
		`{"scenario":"seed_product","params":{"product_id":"no_formats_display","fixture":{"channels":["display"],"pricing_options":[{"pricing_option_id":"p","pricing_model":"cpm","currency":"USD","fixed_price":5}]}}}`,
	} {
		if r := call(t, cs, "comply_test_controller", args); r.Error != nil || pick(r, "success") != "true" {
			t.Fatalf("%s: %s %+v", args, r.Data, r.Error)
		}
	}
	r := call(t, cs, "get_products", `{"buying_mode":"wholesale",`+acme+`}`)
	got := map[string]string{}
	for i := 0; pick(r, "products", strconv.Itoa(i), "product_id") != ""; i++ {
		got[pick(r, "products", strconv.Itoa(i), "product_id")] = pick(r, "products", strconv.Itoa(i), "format_ids", "0", "id")
	}
	if got["no_formats_olv"] != "video_30s" || got["no_formats_display"] != "display_300x250" {
		t.Errorf("seeded products' formats: %v", got)
	}
}
