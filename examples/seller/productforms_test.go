package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"example.com/seller/adcp"
	"example.com/seller/adcp31"
	"example.com/seller/adcp32"

	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Products of 3.2 as the targeting_aware_discovery and
// revenue_share_pricing storyboards seed them (members 3.0.26's Product
// declares differently or not at all), and one whose product_id is wrong
// in every release.
const (
	placementProduct = `{"product_id":"placed","name":"Placed","description":"d","publisher_properties":[{"publisher_domain":"p.example","selection_type":"all"}],` +
		`"delivery_type":"non_guaranteed","channels":["olv"],"format_ids":[{"agent_url":"https://creative.adcontextprotocol.org","id":"video_30s"}],` +
		`"placements":[{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"feed","mode":"targetable"}],` +
		`"overlay_support":{"geo_countries":{"max_values_per_package":1}},"allowed_actions":[{"action":"update_targeting","modes":["self_serve"]}],` +
		`"browser_inventory":{"forecastable_families":["chrome"]},` +
		`"pricing_options":[{"pricing_option_id":"cpm","pricing_model":"cpm","currency":"USD","floor_price":12}],` +
		`"reporting_capabilities":{"available_reporting_frequencies":["daily"],"expected_delay_minutes":240,"timezone":"UTC","supports_webhooks":false,` +
		`"available_metrics":["impressions"],"date_range_support":"date_range"}}`
	shareOption = `{"pricing_option_id":"share","pricing_model":"revenue_share","event_type":"purchase","event_source_id":"src","commission_rate":0.04,"currency":"USD",` +
		`"commission_basis_description":"Net merchandise value"}`
	cpmOption = `{"pricing_option_id":"cpm","pricing_model":"cpm","currency":"USD","fixed_price":5}`
)

// shareProduct is a 3.2 product priced by options.
func shareProduct(options ...string) string {
	return `{"product_id":"shared","name":"Shared","description":"d","publisher_properties":[{"publisher_domain":"p.example","selection_type":"all"}],` +
		`"delivery_type":"guaranteed","channels":["display"],"format_ids":[{"agent_url":"https://creative.adcontextprotocol.org","id":"display_300x250"}],` +
		`"pricing_options":[` + strings.Join(options, ",") + `],` +
		`"reporting_capabilities":{"available_reporting_frequencies":["daily"],"expected_delay_minutes":240,"timezone":"UTC","supports_webhooks":false,` +
		`"available_metrics":["spend"],"date_range_support":"date_range"}}`
}

func testProductSchemas(t *testing.T) productSchemas {
	t.Helper()
	tree, err := openSchemas()
	if err != nil {
		t.Skip("no generated spec data (run go generate): ", err)
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := servedProductSchemas(tree, v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A 3.2 product projected onto each earlier release keeps what that
// release's Product can hold: the members it declares differently
// (3.2's placements before 3.1) or not at all (overlay_support;
// allowed_actions before 3.1) leave, a member no release declares stays, a pricing
// option it cannot express leaves, and without a pricing option left the
// release does not offer the product.
func TestProjectProduct(t *testing.T) {
	s := testProductSchemas(t)
	cases := []struct {
		name, form, to string
		kept, gone     []string // members
		pricing        []string // pricing option ids kept
		err            error
	}{
		{name: "placements onto 3.1", form: placementProduct, to: adcp31.SpecVersion,
			kept: []string{"allowed_actions", "browser_inventory", "channels", "placements"}, gone: []string{"overlay_support"}, pricing: []string{"cpm"}},
		{name: "placements onto 3.0", form: placementProduct, to: adcp.SpecVersion,
			kept: []string{"browser_inventory", "channels"}, gone: []string{"placements", "overlay_support", "allowed_actions"}, pricing: []string{"cpm"}},
		{name: "onto its own release", form: placementProduct, to: adcp32.SpecVersion,
			kept: []string{"placements", "overlay_support", "allowed_actions"}, pricing: []string{"cpm"}},
		{name: "revenue share and cpm onto 3.1", form: shareProduct(shareOption, cpmOption), to: adcp31.SpecVersion, pricing: []string{"cpm"}},
		{name: "revenue share only onto 3.0", form: shareProduct(shareOption), to: adcp.SpecVersion, pricing: []string{}, err: errNotOffered},
		{name: "a bad product_id", form: strings.Replace(shareProduct(cpmOption), `"shared"`, `7`, 1), to: adcp.SpecVersion, err: errors.New("product_id")},
	}
	for _, tc := range cases {
		out, err := s.project([]byte(tc.form), adcp32.SpecVersion, tc.to)
		switch {
		case tc.err == nil && err != nil, tc.err != nil && err == nil,
			tc.err != nil && !errors.Is(err, tc.err) && !strings.Contains(err.Error(), tc.err.Error()):
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.err)
			continue
		}
		if out == nil {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, k := range tc.kept {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: %s left: %s", tc.name, k, out)
			}
		}
		for _, k := range tc.gone {
			if _, ok := m[k]; ok {
				t.Errorf("%s: %s kept: %s", tc.name, k, out)
			}
		}
		var ids []string
		wire.Lenient(m["pricing_options"]).Elems(func(o wire.Lenient) bool {
			id, _ := o.Get("pricing_option_id").AsString()
			ids = append(ids, id)
			return true
		})
		if !slices.Equal(ids, tc.pricing) && !(len(ids) == 0 && len(tc.pricing) == 0) {
			t.Errorf("%s: pricing options %v, want %v", tc.name, ids, tc.pricing)
		}
		if tc.err == nil {
			if err := s.check(tc.to, out); err != nil {
				t.Errorf("%s: the projection is not a %s Product: %v", tc.name, tc.to, err)
			}
		}
	}
}

// A product the test controller seeds at 3.2 keeps its 3.2 members where
// 3.0.26's Product declares them otherwise: get_products answers it as
// seeded at 3.2 (placements, overlay_support, a revenue_share option, the
// filters applied to its own pricing options), without 3.2's members at
// 3.1 and 3.0, and not at all where no pricing option of it exists; it is
// bought with its 3.2 pricing option, and its delivery reports the
// commissionable value revenue share is charged on.
func TestSeededLaterProduct(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	seed := func(id, fixture string) {
		t.Helper()
		r := call(t, cs, "comply_test_controller", `{"adcp_version":"3.2-beta.5","account":`+sandboxAccount+`,"scenario":"seed_product","params":{"product_id":"`+id+`","fixture":`+fixture+`}}`)
		if string(wire.Lenient(r.Data).Get("success")) != "true" {
			t.Fatalf("seed %s: %s %+v", id, r.Data, r.Error)
		}
	}
	seed("placed", placementProduct)
	seed("shared", shareProduct(shareOption))
	seed("canonical", `{"delivery_type":"non_guaranteed","channels":["display"],"format_options":[{"format_option_id":"display_300x250","format_kind":"image",`+
		`"params":{"width":300,"height":250}}],"pricing_options":[`+cpmOption+`]}`)
	products := func(version, filters string) map[string]wire.Lenient {
		t.Helper()
		args := `{` + version + `"buying_mode":"wholesale"`
		if filters != "" {
			args += `,"filters":` + filters
		}
		r := call(t, cs, "get_products", args+`}`)
		if r.Error != nil {
			t.Fatalf("get_products %s %s: %+v", version, filters, r.Error)
		}
		out := map[string]wire.Lenient{}
		wire.Lenient(r.Data).Get("products").Elems(func(p wire.Lenient) bool {
			id, _ := p.Get("product_id").AsString()
			out[id] = p
			return true
		})
		return out
	}
	cases := []struct {
		name, version, filters string
		placed                 string // "" absent, else the member placed must show ("-x": must not)
		shared                 string // "" absent, else the pricing model of its first option
	}{
		{name: "3.2", version: `"adcp_version":"3.2-beta.5",`, placed: "overlay_support", shared: "revenue_share"},
		{name: "3.2 contingent", version: `"adcp_version":"3.2-beta.5",`, filters: `{"pricing_structures":["contingent"]}`, shared: "revenue_share"},
		{name: "3.1", version: `"adcp_version":"3.1",`, placed: "-overlay_support"},
		{name: "3.0", version: ``, placed: "-placements"},
	}
	for _, tc := range cases {
		got := products(tc.version, tc.filters)
		p, ok := got["placed"]
		switch {
		case tc.placed == "" && ok, tc.placed != "" && !ok:
			t.Errorf("%s: placed present %v", tc.name, ok)
		case strings.HasPrefix(tc.placed, "-") && p.Get(tc.placed[1:]).Present(), tc.placed != "" && !strings.HasPrefix(tc.placed, "-") && !p.Get(tc.placed).Present():
			t.Errorf("%s: placed %s", tc.name, p)
		}
		if tc.placed == "overlay_support" && !p.Get("placements").Index(0).Get("kind").StringIs("publisher_ref") {
			t.Errorf("%s: placements as seeded: %s", tc.name, p)
		}
		// A canonical-only product names no legacy format from 3.1 on (3.0
		// has no format_options: it leaves there, format_ids empty).
		if c := got["canonical"]; tc.filters == "" && tc.name != "3.0" && (c.Get("format_ids").Present() || !c.Get("format_options").Index(0).Get("format_kind").StringIs("image")) {
			t.Errorf("%s: a canonical-only product: %s", tc.name, c)
		}
		sh, ok := got["shared"]
		switch {
		case tc.shared == "" && ok, tc.shared != "" && !ok:
			t.Errorf("%s: shared present %v", tc.name, ok)
		case tc.shared != "" && (!sh.Get("pricing_options").Index(0).Get("pricing_model").StringIs(tc.shared) ||
			string(sh.Get("pricing_options").Index(0).Get("commission_rate")) != "0.04"):
			t.Errorf("%s: shared %s", tc.name, sh)
		}
	}
	// The release's shims see the completed products: format_ids and
	// format_options that disagree are flagged.
	seed("divergent", `{"channels":["display"],"delivery_type":"guaranteed","format_ids":[{"agent_url":"https://creative.adcontextprotocol.org/","id":"display_300x250_image"}],`+
		`"format_options":[{"format_kind":"image","format_option_id":"img","params":{"width":728,"height":90},`+
		`"v1_format_ref":[{"agent_url":"https://creative.adcontextprotocol.org/","id":"display_728x90_image"}]}],"pricing_options":[`+cpmOption+`]}`)
	if r := call(t, cs, "get_products", `{"adcp_version":"3.2-beta.5","buying_mode":"wholesale"}`); !strings.Contains(string(r.Data), "FORMAT_DECLARATION_DIVERGENT") {
		t.Errorf("a divergent 3.2 product is not flagged: %s %+v", r.Data, r.Error)
	}
	buy := call(t, cs, "create_media_buy", `{"adcp_version":"3.2-beta.5","idempotency_key":"share-buy-key-00000001","account":{"brand":{"domain":"acmeoutdoor.example"},`+
		`"operator":"pinnacle-agency.example"},"brand":{"domain":"acmeoutdoor.example"},"start_time":"asap","end_time":"2099-07-31T23:59:59Z",`+
		`"packages":[{"product_id":"shared","budget":1000,"pricing_option_id":"share"}]}`)
	if buy.Error != nil || !wire.Lenient(buy.Data).Get("media_buy_id").Present() {
		t.Fatalf("buying the revenue share option: %s %+v", buy.Data, buy.Error)
	}
	// Its delivery reports the commissionable value simulated, the basis
	// of its spend.
	id, _ := wire.Lenient(buy.Data).Get("media_buy_id").AsString()
	for range 2 {
		r := call(t, cs, "comply_test_controller", `{"adcp_version":"3.2-beta.5","account":`+sandboxAccount+`,"scenario":"simulate_delivery","params":{"media_buy_id":"`+id+`",`+
			`"conversions":160,"conversion_value":62500,"commissionable_value":56250,"reported_spend":{"amount":2250,"currency":"USD"}}}`)
		if string(wire.Lenient(r.Data).Get("success")) != "true" {
			t.Fatalf("simulate: %s %+v", r.Data, r.Error)
		}
	}
	r := call(t, cs, "get_media_buy_delivery", `{"adcp_version":"3.2-beta.5","media_buy_ids":["`+id+`"]}`)
	d := wire.Lenient(r.Data).Get("media_buy_deliveries").Index(0)
	row := d.Get("by_package").Index(0)
	if r.Error != nil || !row.Get("pricing_model").StringIs("revenue_share") || string(row.Get("commissionable_value")) != "112500" ||
		string(row.Get("conversion_value")) != "125000" || string(row.Get("spend")) != "4500" || string(d.Get("totals").Get("conversion_value")) != "125000" {
		t.Errorf("revenue share delivery: %s %+v", r.Data, r.Error)
	}
}

// A 3.2 get_products that states its delivery countries twice,
// differently (the deprecated filters.countries and
// targeting_overlay.geo_countries), is INVALID_REQUEST; the same countries
// twice are one constraint.
func TestCountriesContradiction(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	cases := []struct {
		name, legacy, overlay, code string
	}{
		{"equivalent", `["US"]`, `["US"]`, ""},
		{"conflicting", `["CA"]`, `["US"]`, "INVALID_REQUEST"},
	}
	for _, tc := range cases {
		r := call(t, cs, "get_products", `{"adcp_version":"3.2-beta.5","buying_mode":"brief","brief":"Premium outdoor video",`+
			`"filters":{"channels":["olv"],"countries":`+tc.legacy+`},"targeting_overlay":{"geo_countries":`+tc.overlay+`}}`)
		switch {
		case tc.code == "" && r.Error != nil:
			t.Errorf("%s: %+v", tc.name, r.Error)
		case tc.code != "" && (r.Error == nil || r.Error.Code != tc.code || r.Error.Field != "targeting_overlay.geo_countries"):
			t.Errorf("%s: %s %+v, want %s", tc.name, r.Data, r.Error, tc.code)
		}
	}
}

// A 3.2 get_products whose targeting_overlay selects placements returns
// only the products that can carry the selection: a fixed product for its
// complete included set restated, never for a part of it.
func TestPlacementSelection(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	r := call(t, cs, "comply_test_controller", `{"adcp_version":"3.2-beta.5","account":`+sandboxAccount+`,"scenario":"seed_product","params":{"product_id":"fixed",`+
		`"fixture":{"delivery_type":"non_guaranteed","channels":["ctv"],"format_ids":[{"id":"video_30s"}],`+
		`"placements":[{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"feed","mode":"included"},`+
		`{"kind":"publisher_ref","publisher_domain":"p.example","placement_id":"short_video","mode":"included"}],"pricing_options":[`+cpmOption+`]}}}`)
	if string(wire.Lenient(r.Data).Get("success")) != "true" {
		t.Fatalf("seed: %s %+v", r.Data, r.Error)
	}
	const feed, short = `{"publisher_domain":"p.example","placement_id":"feed"}`, `{"publisher_domain":"p.example","placement_id":"short_video"}`
	cases := []struct{ name, refs, want string }{
		{"part of the fixed set", feed, ""},
		{"the fixed set restated", short + "," + feed, "fixed"},
	}
	for _, tc := range cases {
		r := call(t, cs, "get_products", `{"adcp_version":"3.2-beta.5","buying_mode":"wholesale","filters":{"channels":["ctv"]},`+
			`"targeting_overlay":{"placement_selection":{"mode":"selected","placement_refs":[`+tc.refs+`]}}}`)
		var ids []string
		wire.Lenient(r.Data).Get("products").Elems(func(p wire.Lenient) bool {
			id, _ := p.Get("product_id").AsString()
			ids = append(ids, id)
			return true
		})
		if r.Error != nil || strings.Join(ids, ",") != tc.want {
			t.Errorf("%s: %v %+v, want %q", tc.name, ids, r.Error, tc.want)
		}
	}
}
