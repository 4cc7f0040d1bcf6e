package productfilter_test

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/productfilter"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Products as the 3.1 and 3.2 storyboards seed them.
var products = []json.RawMessage{
	json.RawMessage(`{"product_id":"ctv_premium","channels":["ctv"],"delivery_type":"guaranteed",
		"format_ids":[{"agent_url":"https://creative.adcontextprotocol.org","id":"video_30s"}],
		"pricing_options":[{"pricing_option_id":"cpm_usd_fixed","pricing_model":"cpm","currency":"USD","fixed_price":42.5}],
		"reporting_capabilities":{"available_metrics":["impressions","spend","completed_views"]}}`),
	json.RawMessage(`{"product_id":"mixed_currency_display","channels":["display"],"delivery_type":"non_guaranteed","exclusivity":"none",
		"format_ids":[{"agent_url":"https://creative.adcontextprotocol.org/","id":"display_300x250_image"}],
		"format_options":[{"format_option_id":"mrec","format_kind":"image","params":{"width":300,"height":250}}],
		"pricing_options":[{"pricing_option_id":"mixed_display_usd_cpm","pricing_model":"cpm","currency":"USD","floor_price":2},
			{"pricing_option_id":"mixed_display_eur_cpm","pricing_model":"cpm","currency":"EUR","fixed_price":3}],
		"reporting_capabilities":{"available_metrics":["impressions","spend","clicks"],
			"vendor_metrics":[{"vendor":{"domain":"prism.example"},"metric_id":"canonical_format_storyboard_probe"}]}}`),
	json.RawMessage(`{"product_id":"affiliate_content_commerce","channels":["display"],"delivery_type":"non_guaranteed",
		"pricing_options":[{"pricing_option_id":"affiliate_purchase_4pct","pricing_model":"revenue_share","currency":"USD"}]}`),
	// The seller applies a signal priced only in EUR: no USD buyer can buy
	// it (pricing_currency_filter's mandatory_eur_signal_display).
	json.RawMessage(`{"product_id":"mandatory_eur_signal_display","channels":["display"],"delivery_type":"non_guaranteed",
		"signal_targeting_allowed":true,"signal_targeting_rules":{"resolution_model":"direct_targeting","selection_mode":"fixed"},
		"signal_targeting_options":[{"signal_ref":{"scope":"product","signal_id":"fixed_sports_affinity"},"default_selected":true,
			"pricing_options":[{"pricing_option_id":"fixed_sports_affinity_eur_cpm","model":"cpm","cpm":1.5,"currency":"EUR"}]}],
		"pricing_options":[{"pricing_option_id":"mandatory_eur_base_usd_cpm","pricing_model":"cpm","currency":"USD","fixed_price":10}]}`),
}

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name, filters string
		ids           []string
		pricing       map[string][]string // product → pricing option ids kept
		unapplied     string
	}{
		{"none", ``, []string{"ctv_premium", "mixed_currency_display", "affiliate_content_commerce", "mandatory_eur_signal_display"}, nil, ""},
		{"channels", `{"channels":["display","olv"]}`, []string{"mixed_currency_display", "affiliate_content_commerce", "mandatory_eur_signal_display"}, nil, ""},
		{"delivery type", `{"delivery_type":"guaranteed"}`, []string{"ctv_premium"}, nil, ""},
		{"mandatory signal charges payable", `{"pricing_currencies":["EUR"]}`, []string{"mixed_currency_display"}, nil, ""},
		{"exclusivity", `{"exclusivity":"none"}`, []string{"mixed_currency_display"}, nil, ""},
		{"a format id, trailing slash or not", `{"format_ids":[{"agent_url":"https://creative.adcontextprotocol.org","id":"display_300x250_image"}]}`, []string{"mixed_currency_display"}, nil, ""},
		{"a canonical kind", `{"format_kinds":["image","video"]}`, []string{"mixed_currency_display"}, nil, ""},
		{"a format option", `{"format_option_refs":[{"format_option_id":"mrec"}]}`, []string{"mixed_currency_display"}, nil, ""},
		{"metrics, all of them", `{"required_metrics":["impressions","completed_views"]}`, []string{"ctv_premium"}, nil, ""},
		{"a vendor's metric", `{"channels":["display"],"delivery_type":"non_guaranteed","required_vendor_metrics":[{"vendor":{"domain":"prism.example"},"metric_id":"canonical_format_storyboard_probe"}]}`,
			[]string{"mixed_currency_display"}, nil, ""},
		{"another metric of that vendor", `{"required_vendor_metrics":[{"vendor":{"domain":"prism.example"},"metric_id":"other"}]}`, nil, nil, ""},
		{"a currency prunes the options", `{"pricing_currencies":["USD"]}`, []string{"ctv_premium", "mixed_currency_display", "affiliate_content_commerce"},
			map[string][]string{"mixed_currency_display": {"mixed_display_usd_cpm"}}, ""},
		{"a currency no product has", `{"pricing_currencies":["GBP"]}`, nil, nil, ""},
		{"fixed prices", `{"is_fixed_price":true}`, []string{"ctv_premium", "mixed_currency_display", "mandatory_eur_signal_display"},
			map[string][]string{"mixed_currency_display": {"mixed_display_eur_cpm"}}, ""},
		{"auctions, never contingent", `{"is_fixed_price":false}`, []string{"mixed_currency_display"},
			map[string][]string{"mixed_currency_display": {"mixed_display_usd_cpm"}}, ""},
		{"contingent structures", `{"pricing_structures":["contingent"]}`, []string{"affiliate_content_commerce"}, nil, ""},
		{"what only the seller knows", `{"channels":["ctv"],"start_date":"2026-04-01","budget_range":{"min":1000},"countries":["US"]}`,
			[]string{"ctv_premium"}, nil, "budget_range,countries,start_date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := productfilter.Apply(json.RawMessage(tc.filters), products)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, p := range res.Products {
				id, _ := wire.Lenient(p).Get("product_id").AsString()
				ids = append(ids, id)
				if want, ok := tc.pricing[id]; ok {
					var got []string
					wire.Lenient(p).Get("pricing_options").Elems(func(o wire.Lenient) bool {
						s, _ := o.Get("pricing_option_id").AsString()
						got = append(got, s)
						return true
					})
					if !slices.Equal(got, want) {
						t.Errorf("%s pricing %q, want %q", id, got, want)
					}
				}
			}
			if !slices.Equal(ids, tc.ids) || strings.Join(res.Unapplied, ",") != tc.unapplied {
				t.Errorf("kept %q, unapplied %q; want %q, %q", ids, res.Unapplied, tc.ids, tc.unapplied)
			}
		})
	}
	if _, err := productfilter.Apply(json.RawMessage(`[1]`), products); err == nil {
		t.Error("filters that are no object: no error")
	}
}

// Every filter Apply reads is the spec's: each release's product-filters
// schema declares those of its time (3.1 added pricing_currencies and the
// metric filters; 3.2 format_kinds, format_option_refs and
// pricing_structures), so the same request means the same on each.
func TestFiltersOnEveryRelease(t *testing.T) {
	since := map[string]string{"pricing_currencies": "3.1", "required_metrics": "3.1", "required_vendor_metrics": "3.1", "ext": "3.1",
		"format_kinds": "3.2", "format_option_refs": "3.2", "pricing_structures": "3.2"}
	for _, v := range testspec.Versions {
		if v.Version < "3.0" {
			continue
		}
		t.Run(v.Version, func(t *testing.T) {
			tree, err := spec.Open(filepath.Join(testspec.Dir(t), v.Source))
			if err != nil {
				t.Fatal(err)
			}
			data, err := fs.ReadFile(tree.FS, "core/product-filters.json")
			if err != nil {
				t.Fatal(err)
			}
			props := wire.Lenient(data).Get("properties")
			for _, name := range []string{"channels", "delivery_type", "exclusivity", "format_ids", "is_fixed_price",
				"pricing_currencies", "required_metrics", "required_vendor_metrics", "format_kinds", "format_option_refs", "pricing_structures"} {
				want := v.Version >= since[name] || since[name] == ""
				if props.Get(name).Present() != want {
					t.Errorf("%s declared: %v, want %v", name, props.Get(name).Present(), want)
				}
			}
		})
	}
}
