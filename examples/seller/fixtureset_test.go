package main

import (
	"strconv"
	"testing"
)

// TestFixtureSetDiscovery: a sandbox answers discovery from the products
// seeded last (those matching the request), the whole catalog when none
// matches; a seeding after a buyer call starts a new set; a refine's named
// product still meets the request's filters.
func TestFixtureSetDiscovery(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	seed := func(id, channel, currency string) {
		t.Helper()
		args := `{"scenario":"seed_product","params":{"product_id":"` + id + `","fixture":{"channels":["` + channel + `"],"format_ids":[{"id":"display_300x250"}],` +
			`"pricing_options":[{"pricing_option_id":"p","pricing_model":"cpm","currency":"` + currency + `","fixed_price":5}]}}}`
		if r := call(t, cs, "comply_test_controller", args); r.Error != nil || pick(r, "success") != "true" {
			t.Fatalf("seed %s: %s %+v", id, r.Data, r.Error)
		}
	}
	ids := func(args string) []string {
		t.Helper()
		r := call(t, cs, "get_products", args)
		if r.Error != nil {
			t.Fatalf("get_products %s: %+v", args, r.Error)
		}
		var out []string
		for i := 0; pick(r, "products", strconv.Itoa(i), "product_id") != ""; i++ {
			out = append(out, pick(r, "products", strconv.Itoa(i), "product_id"))
		}
		return out
	}
	all := len(ids(`{"buying_mode":"wholesale",` + acme + `}`))
	seed("set1_usd", "display", "USD")
	seed("set1_eur", "display", "EUR")
	tests := []struct {
		name, args string
		want       []string
	}{
		{"the set", `{"buying_mode":"wholesale",` + acme + `}`, []string{"set1_usd", "set1_eur"}},
		{"the set, filtered", `{"buying_mode":"wholesale","filters":{"pricing_currencies":["EUR"]},` + acme + `}`, []string{"set1_eur"}},
		{"a refine names a product its filters exclude", `{"buying_mode":"refine","refine":[{"scope":"product","product_id":"set1_usd"}],` +
			`"filters":{"pricing_currencies":["EUR"]},` + acme + `}`, nil},
	}
	for _, tt := range tests {
		if got := ids(tt.args); !equalStrings(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := ids(`{"buying_mode":"wholesale","filters":{"pricing_currencies":["GBP"]},` + acme + `}`); len(got) != 0 {
		t.Errorf("no product in GBP: got %v", got)
	}
	if got := ids(`{"buying_mode":"wholesale","filters":{"channels":["ctv"]},` + acme + `}`); len(got) == 0 {
		t.Errorf("no fixture matches: the catalog should answer, got none")
	}
	seed("set2_usd", "display", "USD")
	if got := ids(`{"buying_mode":"wholesale",` + acme + `}`); !equalStrings(got, []string{"set2_usd"}) {
		t.Errorf("after a new seeding: got %v, want [set2_usd]", got)
	}
	if all == 0 {
		t.Fatal("the sandbox catalog is empty")
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
