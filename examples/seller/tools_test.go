package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

const acme = `"account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example"}`

// pick reads the member of r's payload at path (object keys, array
// indexes), a string as its value and anything else as JSON.
func pick(r *extract.Result, path ...string) string {
	v := wire.Lenient(r.Data)
	for _, p := range path {
		if n, err := strconv.Atoi(p); err == nil {
			v = v.Index(n)
		} else {
			v = v.Get(p)
		}
	}
	if s, ok := v.AsString(); ok {
		return s
	}
	return string(v)
}

// A media buy through its lifecycle over MCP, as the media_buy_seller,
// pending_creatives_to_start, media_buy_state_machine, invalid_transitions
// and creative_fate_after_cancellation storyboards play it.
func TestBuyLifecycle(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	buy := call(t, cs, "create_media_buy", buyArgs("life-0000000000000001", "", ""))
	id, pkg := member(buy, "media_buy_id"), pick(buy, "packages", "0", "package_id")
	if member(buy, "status") != "pending_creatives" || pkg == "" {
		t.Fatalf("create: %s %+v", buy.Data, buy.Error)
	}
	upd := func(n int, body string) *extract.Result {
		return call(t, cs, "update_media_buy", `{"idempotency_key":"life-upd-00000000000`+strconv.Itoa(n)+`",`+acme+`,"media_buy_id":"`+id+`",`+body+`}`)
	}
	// Creatives: synced to the library and assigned; the buy moves on.
	sync := call(t, cs, "sync_creatives", `{"idempotency_key":"life-sync-0000000001",`+acme+`,"creatives":[{"creative_id":"cr_1","name":"Banner",`+
		`"format_id":{"agent_url":"https://creative.adcontextprotocol.org","id":"display_300x250"},"assets":{}}],"assignments":[{"creative_id":"cr_1","package_id":"`+pkg+`"}]}`)
	if pick(sync, "creatives", "0", "action") != "created" || pick(sync, "creatives", "0", "assigned_to", "0") != pkg {
		t.Fatalf("sync_creatives: %s %+v", sync.Data, sync.Error)
	}
	got := call(t, cs, "get_media_buys", `{`+acme+`,"media_buy_ids":["`+id+`"]}`)
	if s := pick(got, "media_buys", "0", "status"); s != "active" {
		t.Fatalf("after the creative: %s", got.Data)
	}
	for i, c := range []struct {
		body, status, code string
	}{
		{`"paused":true`, "paused", ""},
		{`"paused":false`, "active", ""},
		{`"packages":[{"package_id":"nope","paused":true}]`, "", "PACKAGE_NOT_FOUND"},
		{`"packages":[{"package_id":"` + pkg + `","budget":7000,"targeting_overlay":{"property_list":{"agent_url":"https://gov.example","list_id":"l2"}}}]`, "active", ""},
		{`"canceled":true,"cancellation_reason":"done"`, "canceled", ""},
		{`"canceled":true`, "", "NOT_CANCELLABLE"},
		{`"paused":true`, "", "INVALID_STATE"},
	} {
		r := upd(10+i, c.body)
		if c.code != "" {
			if r.Error == nil || r.Error.Code != c.code {
				t.Errorf("%s: %s %+v, want %s", c.body, r.Data, r.Error, c.code)
			}
			continue
		}
		if r.Error != nil || member(r, "status") != c.status {
			t.Errorf("%s: %s %+v, want %s", c.body, r.Data, r.Error, c.status)
		}
	}
	got = call(t, cs, "get_media_buys", `{`+acme+`,"media_buy_ids":["`+id+`"]}`)
	if pick(got, "media_buys", "0", "packages", "0", "targeting_overlay", "property_list", "list_id") != "l2" || pick(got, "media_buys", "0", "cancellation", "reason") != "done" {
		t.Errorf("after the updates: %s", got.Data)
	}
	if r := upd(90, `"paused":true`); r.Error == nil || r.Error.Code != "INVALID_STATE" {
		t.Errorf("a canceled buy paused: %+v", r.Error)
	}
	if r := call(t, cs, "update_media_buy", `{"idempotency_key":"life-upd-0000000099",`+acme+`,"media_buy_id":"mb_404","paused":true}`); r.Error == nil || r.Error.Code != "MEDIA_BUY_NOT_FOUND" {
		t.Errorf("an unknown buy: %+v", r.Error)
	}
	// The creative outlives the buy.
	lib := call(t, cs, "list_creatives", `{`+acme+`,"filters":{"creative_ids":["cr_1"]}}`)
	if pick(lib, "creatives", "0", "status") != "approved" || pick(lib, "query_summary", "total_matching") != "1" {
		t.Errorf("library after the cancel: %s", lib.Data)
	}
	// Delivery of the buy, by package.
	if d := call(t, cs, "get_media_buy_delivery", `{`+acme+`,"media_buy_ids":["`+id+`"]}`); pick(d, "media_buy_deliveries", "0", "by_package", "0", "package_id") != pkg {
		t.Errorf("delivery: %s %+v", d.Data, d.Error)
	}
}

// A brief gets a proposal; a refine revises it, finalize commits it; the
// buy that names it gets its packages, once.
func TestProposals(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	brief := call(t, cs, "get_products", `{"buying_mode":"brief","brief":"Premium video and display, Q2 flight",`+acme+`}`)
	id := pick(brief, "proposals", "0", "proposal_id")
	if id != "balanced_reach_q2" || pick(brief, "proposals", "0", "proposal_status") != "draft" {
		t.Fatalf("brief: %s", brief.Data)
	}
	accept := func(n int) *extract.Result {
		return call(t, cs, "create_media_buy", `{"idempotency_key":"prop-buy-000000000`+strconv.Itoa(n)+`","brand":{"domain":"acmeoutdoor.example"},`+acme+
			`,"proposal_id":"`+id+`","total_budget":{"amount":50000,"currency":"USD"},"start_time":"asap","end_time":"2099-06-30T23:59:59Z"}`)
	}
	if r := accept(1); r.Error == nil || r.Error.Code != "PROPOSAL_NOT_COMMITTED" {
		t.Fatalf("accepting a draft: %s %+v", r.Data, r.Error)
	}
	refine := call(t, cs, "get_products", `{"buying_mode":"refine","refine":[{"scope":"proposal","proposal_id":"`+id+`","ask":"Drop the display product."}],`+acme+`}`)
	if n := strings.Count(string(wire.Lenient(refine.Data).Get("proposals").Index(0).Get("allocations")), "product_id"); n != 1 {
		t.Errorf("refined: %s", refine.Data)
	}
	final := call(t, cs, "get_products", `{"buying_mode":"refine","refine":[{"scope":"proposal","proposal_id":"`+id+`","action":"finalize"}],`+acme+`}`)
	if pick(final, "proposals", "0", "proposal_status") != "committed" || pick(final, "proposals", "0", "expires_at") == "" {
		t.Fatalf("finalized: %s", final.Data)
	}
	r := accept(2)
	if r.Error != nil || pick(r, "packages", "0", "budget") != "50000" {
		t.Fatalf("accepting: %s %+v", r.Data, r.Error)
	}
	if r := accept(3); r.Error == nil || r.Error.Code != "INVALID_STATE" {
		t.Errorf("accepting twice: %+v", r.Error)
	}
}

// A property_list filter, which this seller does not resolve, is refused
// rather than answered with the unfiltered catalog.
func TestPropertyListFilterRefused(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	r := call(t, cs, "get_products", `{"buying_mode":"brief","brief":"video","property_list":{"agent_url":"https://lists.example","list_id":"l1"}}`)
	if r.Error == nil || r.Error.Code != "UNSUPPORTED_FEATURE" || r.Error.Field != "property_list" {
		t.Fatalf("get_products with a property list: %s %+v", r.Data, r.Error)
	}
}

// get_products applies the filters a catalog answers (channels, delivery
// type, pricing) and prunes pricing options to the ones asked for; a brief
// puts the products it names first.
func TestProductFilters(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	for _, tc := range []struct{ filters, want string }{
		{`{"channels":["ctv"]}`, "ctv_premium"},
		{`{"delivery_type":"non_guaranteed"}`, "test-product"},
		{`{"is_fixed_price":false}`, "test-product"},
		{`{"pricing_currencies":["EUR"]}`, ""},
		{`{"required_metrics":["clicks"]}`, "test-product"},
		// A brief orders the products by the words they share with it.
		{`brief Standard display across the network`, "test-product ctv_premium"},
	} {
		mode := `"buying_mode":"wholesale"`
		if brief, ok := strings.CutPrefix(tc.filters, "brief "); ok {
			mode, tc.filters = `"buying_mode":"brief","brief":"`+brief+`"`, `{}`
		}
		r := call(t, cs, "get_products", `{`+mode+`,"filters":`+tc.filters+`,`+acme+`}`)
		if r.Error != nil {
			t.Fatalf("%s: %+v", tc.filters, r.Error)
		}
		var got struct {
			Products []struct {
				ID string `json:"product_id"`
			} `json:"products"`
		}
		if err := json.Unmarshal(r.Data, &got); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range got.Products {
			ids = append(ids, p.ID)
		}
		if s := strings.Join(ids, " "); s != tc.want {
			t.Errorf("%s: products %q, want %q", tc.filters, s, tc.want)
		}
	}
}

// Accounts are upserted by brand and operator and listed a page at a time;
// a tool of a protocol this seller does not declare is UNSUPPORTED_FEATURE
// over MCP, not a JSON-RPC error.
func TestAccountsAndUnknownTools(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	for i, domain := range []string{"a.example", "b.example", "c.example", "a.example"} {
		r := call(t, cs, "sync_accounts", `{"idempotency_key":"acct-sync-000000000`+strconv.Itoa(i)+`","accounts":[{"brand":{"domain":"`+domain+`"},"operator":"op.example","billing":"operator"}]}`)
		want := "created"
		if i == 3 {
			want = "updated"
		}
		if pick(r, "accounts", "0", "action") != want {
			t.Errorf("sync %s: %s", domain, r.Data)
		}
	}
	page := call(t, cs, "list_accounts", `{"pagination":{"max_results":2}}`)
	cursor := pick(page, "pagination", "cursor")
	last := call(t, cs, "list_accounts", `{"pagination":{"max_results":2,"cursor":"`+cursor+`"}}`)
	if pick(page, "pagination", "has_more") != "true" || pick(last, "pagination", "has_more") != "false" || pick(last, "accounts", "0", "brand", "domain") != "c.example" {
		t.Errorf("pages: %s then %s", page.Data, last.Data)
	}
	if r := call(t, cs, "list_accounts", `{"pagination":{"cursor":"forged"}}`); r.Error == nil || r.Error.Field != "pagination.cursor" {
		t.Errorf("a forged cursor: %+v", r.Error)
	}
	// Billing outside supported_billing (operator) is refused per account;
	// 3.0 has no BILLING_NOT_SUPPORTED (TestCanonical32 reads 3.2's).
	for _, billing := range []string{"agent", "advertiser"} {
		r := call(t, cs, "sync_accounts", `{"idempotency_key":"acct-bill-`+billing+`-00000","accounts":[{"brand":{"domain":"d.example"},"operator":"op.example","billing":"`+billing+`"}]}`)
		if pick(r, "accounts", "0", "action") != "failed" || pick(r, "accounts", "0", "errors", "0", "code") != "UNSUPPORTED_FEATURE" {
			t.Errorf("billing %s: %s", billing, r.Data)
		}
	}
	if r := call(t, cs, "get_signals", `{"signal_spec":"x"}`); r.Error == nil || r.Error.Code != "UNSUPPORTED_FEATURE" {
		t.Errorf("an unknown tool: %+v", r.Error)
	}
}

// Every standard format says which assets its creatives carry (as the
// conformance fuzzer's seeder needs to make one), and a creative with
// them syncs.
func TestFormatAssets(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	r := call(t, cs, "list_creative_formats", `{"format_ids":[{"agent_url":"https://creative.adcontextprotocol.org","id":"display_300x250"},`+
		`{"agent_url":"https://creative.adcontextprotocol.org","id":"native_post"}]}`)
	if pick(r, "formats", "0", "assets", "0", "asset_type") != "image" || pick(r, "formats", "0", "assets", "0", "required") != "true" ||
		pick(r, "formats", "0", "assets", "0", "item_type") != "individual" || pick(r, "formats", "1", "assets", "2", "asset_type") != "url" {
		t.Fatalf("formats: %s %+v", r.Data, r.Error)
	}
	sync := call(t, cs, "sync_creatives", `{"idempotency_key":"fmt-sync-0000000001",`+acme+`,"creatives":[{"creative_id":"cr_img","name":"Banner",`+
		`"format_id":{"agent_url":"https://creative.adcontextprotocol.org","id":"display_300x250"},`+
		`"assets":{"image":{"asset_type":"image","url":"https://cdn.example/b.png","width":300,"height":250}}}]}`)
	if pick(sync, "creatives", "0", "action") != "created" {
		t.Errorf("sync_creatives: %s %+v", sync.Data, sync.Error)
	}
}
