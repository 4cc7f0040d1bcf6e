package main

import (
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// seed_account (3.1 and later): three seeded sandbox accounts page through
// list_accounts two at a time, as pagination_integrity_list_accounts walks
// them; seeding one again with its fixture succeeds, with another fixture
// is refused; the 3.0 controller has no such scenario.
func TestSeedAccount(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	fixture := func(n, status string) string {
		return `"params":{"account_id":"acct_page_` + n + `","fixture":{"brand":{"domain":"page-acme-` + n + `.example"},` +
			`"operator":"page-pinnacle.example","billing":"operator","sandbox":true,"status":"` + status + `"}}`
	}
	for _, pin := range []string{"3.1", "3.2-beta.5"} {
		t.Run(pin, func(t *testing.T) {
			cs := mcpBuyer(t, base, testKey)
			ver := `"adcp_version":"` + pin + `","account":{"sandbox":true,"account_id":"acct_page_1"},`
			seed := func(args string) wire.Lenient {
				t.Helper()
				r := call(t, cs, "comply_test_controller", `{`+ver+`"scenario":"seed_account",`+args+`}`)
				if r.Error != nil {
					t.Fatalf("seed_account: %+v", r.Error)
				}
				return wire.Lenient(r.Data)
			}
			for _, n := range []string{"1", "2", "3"} {
				if v := seed(fixture(n, "active")); !v.Get("success").Truthy() {
					t.Fatalf("seed %s: %s", n, v)
				}
			}
			if v := seed(fixture("1", "active")); !v.Get("success").Truthy() {
				t.Errorf("the same fixture again: %s", v)
			}
			if v := seed(fixture("1", "suspended")); v.Get("success").Truthy() || !v.Get("error").StringIs("INVALID_STATE") {
				t.Errorf("another fixture: %s", v)
			}
			var ids []string
			cursor := ""
			for range 3 {
				args := `{"adcp_version":"` + pin + `","sandbox":true,"pagination":{"max_results":2` + cursor + `}}`
				v := wire.Lenient(call(t, cs, "list_accounts", args).Data)
				v.Get("accounts").Elems(func(e wire.Lenient) bool {
					id, _ := e.Get("account_id").AsString()
					ids = append(ids, id)
					return true
				})
				c, more := v.Get("pagination").Get("cursor").AsString()
				if !v.Get("pagination").Get("has_more").Truthy() {
					break
				}
				if !more {
					t.Fatalf("has_more without a cursor: %s", v)
				}
				cursor = `,"cursor":"` + c + `"`
			}
			if got := strings.Join(ids, ","); !strings.Contains(got, "acct_page_1,acct_page_2,acct_page_3") {
				t.Errorf("listed %s", got)
			}
		})
	}
	cs := mcpBuyer(t, base, testKey)
	r := call(t, cs, "comply_test_controller", `{"adcp_major_version":3,"scenario":"seed_account",`+fixture("9", "active")+`}`)
	if v := wire.Lenient(r.Data); r.Error == nil && v.Get("success").Truthy() {
		t.Errorf("3.0 seeded an account: %s", v)
	}
}
