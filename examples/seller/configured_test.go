package main

import (
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Targeting-aware discovery (3.2): concrete targeting in get_products
// issues configured products (own id, is_custom, expires_at, forecast),
// a brief's hard targeting is confirmed in targeting_resolution, an age
// range the intervals cannot build and a browser without inventory come
// back as sparse modifications, required_overlay_support excludes what a
// product cannot select later, and create_media_buy of a configured
// product books its bound targeting, refusing what the product cannot
// carry.
func TestConfiguredOffers(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	r := call(t, cs, "comply_test_controller", `{"adcp_version":"3.2-beta.5","account":`+sandboxAccount+`,"scenario":"seed_product","params":{"product_id":"video",`+
		`"fixture":{"delivery_type":"non_guaranteed","channels":["olv"],"format_ids":[{"id":"video_30s"}],`+
		`"placements":[{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"feed","mode":"targetable"}],`+
		`"overlay_support":{"geo_countries":{"max_values_per_package":1},"geo_proximity":{"radius":true},"demographics":{"age":true},`+
		`"placement_selection":{"max_values_per_package":1},"browser":{"families":["chrome","safari"]}},`+
		`"demographic_targeting":{"age":{"execution_modes":["enumerated_intervals"],"unknown_handling":"always_excluded","intervals":[`+
		`{"interval_id":"a18","age":{"min":18,"max":24,"include_unknown":false}},{"interval_id":"a25","age":{"min":25,"max":34,"include_unknown":false}},`+
		`{"interval_id":"a35","age":{"min":35,"max":44,"include_unknown":false}}]}},`+
		`"browser_inventory":{"unavailable_families":["safari"]},"pricing_options":[`+cpmOption+`]}}}`)
	if string(wire.Lenient(r.Data).Get("success")) != "true" {
		t.Fatalf("seed: %s %+v", r.Data, r.Error)
	}
	discover := func(members string) wire.Lenient {
		t.Helper()
		r := call(t, cs, "get_products", `{"adcp_version":"3.2-beta.5","account":`+sandboxAccount+`,"filters":{"channels":["olv"]},`+members+`}`)
		if r.Error != nil {
			t.Fatalf("get_products %s: %+v", members, r.Error)
		}
		return wire.Lenient(r.Data)
	}
	offered := func(d wire.Lenient) wire.Lenient {
		var p wire.Lenient
		d.Get("products").Elems(func(e wire.Lenient) bool {
			if id, _ := e.Get("product_id").AsString(); strings.HasPrefix(id, "video_cfg_") {
				p = e
			}
			return !p.Present()
		})
		return p
	}

	// Hard targeting in prose: confirmed once, products configured.
	d := discover(`"buying_mode":"brief","brief":"Video. Hard requirements: deliver only in the US and only to people ages 18 through 44."`)
	if got := string(d.Get("targeting_resolution").AppendCompact(nil)); got != `{"brief_targeting":{"demographics":{"age":{"include_unknown":false,"max":44,"min":18}},"geo_countries":["US"]}}` {
		t.Errorf("brief_targeting = %s", got)
	}
	if p := offered(d); string(p.Get("is_custom")) != "true" || !p.Get("expires_at").Present() || !p.Get("forecast").Present() || p.Get("targeting_resolution").Present() {
		t.Errorf("brief's configured product: %s", p)
	}
	if d := discover(`"buying_mode":"brief","brief":"Premium video for adults"`); d.Get("targeting_resolution").Present() || offered(d).Present() {
		t.Errorf("a brief without hard targeting configures: %s", d)
	}

	// Inexact age and an unavailable browser: sparse modifications, bound.
	d = discover(`"buying_mode":"brief","brief":"Video","targeting_overlay":{"demographics":{"age":{"min":21,"max":35,"include_unknown":false}},"browser":["chrome","safari"]}`)
	p := offered(d)
	if got := string(p.Get("targeting_resolution").AppendCompact(nil)); !strings.Contains(got, `"applied":{"include_unknown":false,"max":34,"min":25},"operation":"replace","path":"/demographics/age"`) ||
		!strings.Contains(got, `"operation":"remove_values","path":"/browser"`) || !strings.Contains(got, `"values":["safari"]`) {
		t.Errorf("modifications: %s", got)
	}
	id, _ := p.Get("product_id").AsString()

	// Support required for later: covered or excluded.
	if d := discover(`"buying_mode":"wholesale","required_overlay_support":{"geo_proximity":{"travel_time":true}}`); d.Get("products").Index(0).Present() {
		t.Errorf("travel_time required, got %s", d.Get("products"))
	}
	if d := discover(`"buying_mode":"wholesale","required_overlay_support":{"geo_proximity":{"radius":true},"browser":{"families":["chrome"]}}`); !d.Get("products").Index(0).Present() {
		t.Errorf("radius and chrome required: no product")
	}

	buy := func(key, pkg string) (wire.Lenient, string) {
		t.Helper()
		r := call(t, cs, "create_media_buy", `{"adcp_version":"3.2-beta.5","idempotency_key":"`+key+`","account":`+sandboxAccount+`,`+
			`"brand":{"domain":"acmeoutdoor.example"},"start_time":"asap","end_time":"2099-07-31T23:59:59Z","packages":[`+pkg+`]}`)
		if r.Error != nil {
			return nil, r.Error.Code + " " + r.Error.Field
		}
		return wire.Lenient(r.Data), ""
	}
	got, refused := buy("configured-buy-key-0001", `{"product_id":"`+id+`","pricing_option_id":"cpm","budget":1000}`)
	pk := got.Get("packages").Index(0)
	if refused != "" || string(pk.Get("targeting_overlay").Get("demographics").Get("age").Get("min")) != "25" ||
		string(pk.Get("targeting_overlay").Get("browser").AppendCompact(nil)) != `["chrome"]` ||
		string(pk.Get("targeting_resolution").Get("demographics").Get("equivalent")) != "true" {
		t.Errorf("buying the configured product: %s %s", got, refused)
	}
	cases := []struct{ name, pkg, want string }{
		{"too many countries", `{"product_id":"video","pricing_option_id":"cpm","budget":1000,"targeting_overlay":{"geo_countries":["US","CA"]}}`,
			"UNSUPPORTED_FEATURE packages[0].targeting_overlay.geo_countries"},
		{"another publisher's placement", `{"product_id":"video","pricing_option_id":"cpm","budget":1000,"targeting_overlay":{"placement_selection":` +
			`{"mode":"selected","placement_refs":[{"publisher_domain":"q.example","placement_id":"feed"}]}}}`,
			"INVALID_REQUEST packages[0].targeting_overlay.placement_selection.placement_refs[0]"},
		{"an age range the intervals cannot build", `{"product_id":"video","pricing_option_id":"cpm","budget":1000,"targeting_overlay":` +
			`{"demographics":{"age":{"min":21,"max":35,"include_unknown":false}}}}`, "UNSUPPORTED_FEATURE packages[0].targeting_overlay.demographics.age"},
	}
	for i, tc := range cases {
		if _, refused := buy("configured-refused-key-000"+string(rune('1'+i)), tc.pkg); refused != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, refused, tc.want)
		}
	}
}
