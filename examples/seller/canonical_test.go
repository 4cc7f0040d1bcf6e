package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"example.com/seller/adcp32"

	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// buyer32 is a buyer pinned at 3.2-beta.5 over MCP.
func buyer32(t *testing.T, base string) *buyer.Client {
	t.Helper()
	m := mcpSession(t, base)
	c, err := buyer.New(adcp32.Spec(), m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCanonical32: 3.2's canonical creative wire at the 3.2 edge, in
// answers the seller validates against 3.2's schemas.
func TestCanonical32(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true; c.LiveAPIKey = liveKey })
	c := buyer32(t, base)
	cs := mcpBuyer(t, base, testKey)
	for _, fx := range []string{
		`"asset_filter_published_mixed","fixture":{"status":"approved","format_id":{"agent_url":"https://creative.example.com","id":"existing_post"},` +
			`"manifest":{"assets":{"published_post":{"asset_type":"published_post","post_url":"https://community.example/posts/1"},"landing_page_url":{"asset_type":"url","url":"https://a.example/"}}}}`,
		`"asset_filter_published_canonical","fixture":{"status":"approved","format_kind":"video_hosted","format_option_ref":{"scope":"publisher",` +
			`"publisher_domain":"community.example","format_option_id":"existing_published_post"},"manifest":{"assets":{"published_post":{"asset_type":"published_post","platform":"community","platform_post_id":"p2"}}}}`,
		`"asset_filter_image","fixture":{"status":"approved","format_id":{"agent_url":"https://creative.example.com","id":"existing_post"},` +
			`"manifest":{"assets":{"image":{"asset_type":"image","url":"https://cdn.example/i.png","width":300,"height":250}}}}`,
		`"asset_filter_nested_card_image","fixture":{"status":"approved","format_kind":"image_carousel","manifest":{"assets":{"cards":[{"asset_type":"card",` +
			`"media":{"asset_type":"image","url":"https://cdn.example/c.png","width":1200,"height":628}}]}}}`,
	} {
		if r := call(t, cs, "comply_test_controller", `{"scenario":"seed_creative","params":{"creative_id":`+fx+`}}`); r.Error != nil || string(wire.Lenient(r.Data).Get("success")) != "true" {
			t.Fatalf("seed %s: %+v %s", fx, r.Error, r.Data)
		}
	}
	ids := `"creative_ids":["asset_filter_published_mixed","asset_filter_published_canonical","asset_filter_image","asset_filter_nested_card_image"]`
	for _, tc := range []struct{ name, tool, args, path, want string }{
		{"a canonical preview says the quality it rendered", "preview_creative", `{` + acme + `,"request_type":"single","quality":"production",` +
			`"creative_manifest":{"format_kind":"image","assets":{"image":{"asset_type":"image","url":"https://cdn.example/b.png","width":300,"height":250}}}}`,
			"quality_used", `"draft"`},
		{"accounts take a currency per media buy", "get_adcp_capabilities", `{}`, "account.supported_account_currency_modes", `["per_media_buy"]`},
		{"billing outside supported_billing: the capability gate", "sync_accounts", `{"idempotency_key":"billing-gate-key-000001","accounts":[{"brand":{"domain":"d.example"},` +
			`"operator":"op.example","billing":"agent"}]}`, "accounts.0.errors.0", `{"code":"BILLING_NOT_SUPPORTED","message":"This seller offers operator billing only, not agent",` +
			`"field":"accounts[0].billing","details":{"scope":"capability","supported_billing":["operator"]},"recovery":"correctable"}`},
		{"capability changes are notified", "get_adcp_capabilities", `{}`, "adcp.capability_changes.notifications.registration_task", `"sync_agent_notification_configs"`},
		{"agent-level subscribers: a dry-run clear", "sync_agent_notification_configs", `{"idempotency_key":"agent-notify-key-000001","notification_configs":[],"dry_run":true}`,
			"action", `"unchanged"`},
		{"materialized localization is declared", "get_adcp_capabilities", `{}`, "creative.localization.locale_matching", `"rfc4647_lookup"`},
		{"a localized creative answers its resolved topology", "sync_creatives", `{` + acme + `,"idempotency_key":"localized-sync-key-000001","creatives":[` + localized("loc_en_us") + `]}`,
			"creatives.0.localization.variants.1.assets.image.width", `1080`},
		{"a dangling default fails the creative, nothing applied", "sync_creatives", `{` + acme + `,"idempotency_key":"localized-sync-key-000002","creatives":[` + localized("loc_missing") + `]}`,
			"creatives.0.errors.0.field", `"creatives[0].localization.default_locale_variant_id"`},
		{"list_creatives reads the topology back", "list_creatives", `{` + acme + `,"filters":{"creative_ids":["trail_localized"]}}`,
			"creatives.0.localization.locale_fallbacks.0.locale_variant_id", `"loc_es_mx"`},
		{"asset_types: OR within the field, direct slots only", "list_creatives", `{` + acme + `,"filters":{` + ids + `,"asset_types":["published_post","audio"]}}`,
			"query_summary.total_matching", `2`},
		{"asset_types and format_ids: AND across fields", "list_creatives", `{` + acme + `,"filters":{` + ids + `,"asset_types":["published_post"],` +
			`"format_ids":[{"agent_url":"https://creative.example.com","id":"existing_post"}]}}`, "creatives.0.creative_id", `"asset_filter_published_mixed"`},
		{"a nested card image is not an image slot", "list_creatives", `{` + acme + `,"filters":{` + ids + `,"asset_types":["image"]}}`,
			"query_summary.total_matching", `1`},
		{"a canonical creative keeps its identity and assets", "list_creatives", `{` + acme + `,"filters":{"creative_ids":["asset_filter_published_canonical"]}}`,
			"creatives.0", `{"format_kind":"video_hosted","ref":"existing_published_post","asset":"published_post"}`},
	} {
		r, err := c.Invoke(t.Context(), tc.tool, json.RawMessage(tc.args))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := at(wire.Lenient(r.Data), tc.path)
		if tc.path == "creatives.0" {
			k, _ := got.Get("format_kind").AsString()
			ref, _ := got.Get("format_option_ref").Get("format_option_id").AsString()
			a, _ := got.Get("assets").Get("published_post").Get("asset_type").AsString()
			got = wire.Lenient(`{"format_kind":"` + k + `","ref":"` + ref + `","asset":"` + a + `"}`)
		}
		if string(got) != tc.want {
			t.Errorf("%s: %s = %s, want %s (%s)", tc.name, tc.path, got, tc.want, r.Data)
		}
	}
}

// at is the member of v at the dotted path (array elements by index).
func at(v wire.Lenient, path string) wire.Lenient {
	for _, k := range strings.Split(path, ".") {
		if n, err := strconv.Atoi(k); err == nil {
			v = v.Index(n)
		} else {
			v = v.Get(k)
		}
	}
	return v
}

// localized is a 3.2 creative with an English source, a Mexican Spanish
// target and the default def.
func localized(def string) string {
	return `{"creative_id":"trail_localized","name":"Trail","format_kind":"image","assets":{"image":{"asset_type":"image","url":"https://cdn.example/t.png",` +
		`"width":1080,"height":1080},"headline":{"asset_type":"text","content":"Find your trail","language":"en-US"}},"localization":{"source":` +
		`{"locale_variant_id":"loc_en_us","locale":"en-US"},"target_variants":[{"locale_variant_id":"loc_es_mx","locale":"es-MX","assets":{"headline":` +
		`{"asset_type":"text","content":"Encuentra tu sendero","language":"es-MX"}}}],"locale_fallbacks":[{"language_range":"es","locale_variant_id":"loc_es_mx"}],` +
		`"default_locale_variant_id":"` + def + `","unmatched_locale_action":"do_not_serve"}}`
}
