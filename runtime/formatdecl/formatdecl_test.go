package formatdecl_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/formatdecl"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

const legacy = `"https://creative.adcontextprotocol.org/"`

// product is a complete product declaring format_ids ids and one image
// format option whose v1_format_ref is ref ("" for none).
func product(id, ids, ref string) string {
	opt := `{"format_kind":"image","format_option_id":"` + id + `_image","params":{"width":300,"height":250}`
	if ref != "" {
		opt += `,"v1_format_ref":[{"agent_url":` + legacy + `,"id":"` + ref + `"}]`
	}
	opt += `}`
	p := `{"product_id":"` + id + `","name":"P","description":"D","publisher_properties":[{"publisher_domain":"news.example","selection_type":"all"}],` +
		`"delivery_type":"guaranteed","channels":["display"],"format_options":[` + opt + `],` +
		`"pricing_options":[{"pricing_option_id":"cpm","pricing_model":"cpm","currency":"USD","fixed_price":8}],` +
		`"reporting_capabilities":{"available_reporting_frequencies":["daily"],"expected_delay_minutes":60,"timezone":"UTC","supports_webhooks":false,"available_metrics":["impressions"],"date_range_support":"date_range"}`
	if ids != "" {
		p += `,"format_ids":[` + ids + `]`
	}
	return p + `}`
}

func formatID(url, id string) string { return `{"agent_url":` + url + `,"id":"` + id + `"}` }

func response(products ...string) string {
	return `{"status":"completed","products":[` + strings.Join(products, ",") + `],"cache_scope":"public"}`
}

// TestAdvise: each product whose format_options reference a named format
// its format_ids lack gets one producer advisory naming it; agreeing,
// single-shape and already-flagged products get none.
func TestAdvise(t *testing.T) {
	divergent := product("div", formatID(legacy, "display_300x250_image"), "display_728x90_image")
	agreeing := product("ok", formatID(legacy, "display_300x250_image"), "display_300x250_image")
	tests := []struct {
		name   string
		body   string
		fields []string // the advisories' fields, in order
	}{
		{"divergent", response(divergent), []string{"products[0]"}},
		{"agreeing", response(agreeing), nil},
		{"agreeing but for a trailing slash", response(product("ok", formatID(`"https://creative.adcontextprotocol.org"`, "display_300x250_image"), "display_300x250_image")), nil},
		{"format_options only", response(product("v2", "", "display_728x90_image")), nil},
		{"format_ids beyond the references", response(product("more", formatID(legacy, "display_300x250_image")+","+formatID(legacy, "display_728x90"), "display_300x250_image")), nil},
		{"the second of two", response(agreeing, divergent), []string{"products[1]"}},
		{"flagged by a hop before", `{"products":[` + divergent + `],"errors":[{"code":"FORMAT_DECLARATION_DIVERGENT","message":"m","field":"products[0]","source":"sdk"}]}`, []string{"products[0]"}},
		{"no products", `{"products":[]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := formatdecl.Advise(json.RawMessage(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			wire.Lenient(out).Get("errors").Elems(func(e wire.Lenient) bool {
				if e.Get("code").StringIs(formatdecl.DivergentCode) {
					f, _ := e.Get("field").AsString()
					got = append(got, f)
				}
				return true
			})
			if strings.Join(got, ",") != strings.Join(tt.fields, ",") {
				t.Errorf("advisories at %v, want %v: %s", got, tt.fields, out)
			}
			if len(tt.fields) == 0 && string(out) != tt.body {
				t.Errorf("changed a body with nothing to flag: %s", out)
			}
		})
	}
	if _, err := formatdecl.Advise(json.RawMessage(`[1]`)); err == nil {
		t.Error("an array is not a get_products response")
	}
	if _, err := formatdecl.Advise(json.RawMessage(`{"products":`)); err == nil {
		t.Error("broken JSON passed")
	}
}

// TestAdviseSchemas: the advisory is a valid errors[] entry of a
// successful get_products response, with a code of the error-code enum,
// in every release that has format_options (3.1 and later).
func TestAdviseSchemas(t *testing.T) {
	body := response(product("div", formatID(legacy, "display_300x250_image"), "display_728x90_image"))
	for _, v := range specseller.Versions {
		if strings.HasPrefix(v.Version, "3.0.") {
			continue // no format_options: nothing can diverge
		}
		tree, _ := specseller.Open(t, v.Version)
		val, err := validate.New(tree, validate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := formatdecl.Advise(json.RawMessage(body))
		if err != nil {
			t.Fatal(err)
		}
		if issues, err := val.Validate("media-buy/get-products-response.json", out); err != nil || len(issues) > 0 {
			t.Errorf("%s: %s: %v %v", v.Version, out, issues, err)
		}
		e := wire.Lenient(out).Get("errors").Index(0)
		if issues, err := val.Validate("core/error.json", e.Raw()); err != nil || len(issues) > 0 {
			t.Errorf("%s: %s: %v %v", v.Version, e.Raw(), issues, err)
		}
		if issues, err := val.Validate("enums/error-code.json", []byte(`"`+formatdecl.DivergentCode+`"`)); err != nil || len(issues) > 0 {
			t.Errorf("%s: %s is not in the error-code enum: %v %v", v.Version, formatdecl.DivergentCode, issues, err)
		}
	}
}

// TestCheckSelector: a direct canonical selector must name every
// dimension the product's option of its kind fixes.
func TestCheckSelector(t *testing.T) {
	fixed := product("mrec", formatID(legacy, "display_300x250_image"), "display_300x250_image")
	legacyOnly := `{"product_id":"old","format_ids":[` + formatID(legacy, "display_300x250") + `]}`
	tests := []struct {
		name, product, pkg string
		field              string // "" for satisfied
	}{
		{"complete dimensions", fixed, `{"format_kind":"image","params":{"width":300,"height":250}}`, ""},
		{"bare kind", fixed, `{"format_kind":"image"}`, "packages[0].params"},
		{"width only", fixed, `{"format_kind":"image","params":{"width":300}}`, "packages[0].params"},
		{"other dimensions", fixed, `{"format_kind":"image","params":{"width":728,"height":90}}`, "packages[0].params"},
		{"a kind the product lacks", fixed, `{"format_kind":"video_hosted"}`, "packages[0].format_kind"},
		{"no direct selector", fixed, `{"format_option_refs":[{"scope":"product","format_option_id":"mrec_image"}]}`, ""},
		{"a product with named formats only", legacyOnly, `{"format_kind":"image"}`, ""},
	}
	for _, tt := range tests {
		e := formatdecl.CheckSelector(json.RawMessage(tt.product), json.RawMessage(tt.pkg), "packages[0]")
		switch {
		case tt.field == "" && e != nil:
			t.Errorf("%s: refused: %v", tt.name, e)
		case tt.field != "" && (e == nil || e.Code != "UNSUPPORTED_FEATURE" || e.Field != tt.field):
			t.Errorf("%s: got %+v, want UNSUPPORTED_FEATURE at %s", tt.name, e, tt.field)
		}
	}
}
