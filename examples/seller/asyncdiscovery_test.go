package main

import (
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// In each release from 3.1, over MCP, as get_products_async and
// stale_response_advisory drive it: the release's controller lists
// force_get_products_arm, force_task_completion and
// force_upstream_unavailable; a forced brief-mode get_products answers
// submitted under the directive's task id (a wholesale one does not take
// the directive); force_task_completion gives the task the buyer's result,
// which get_task_status returns as sent; and with the upstream forced
// down the next get_products is a success carrying STALE_RESPONSE, the one
// after it fresh.
func TestAsyncDiscoveryLater(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	const account = `"account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example","sandbox":true}`
	for _, pin := range []string{"3.1", "3.2-beta.5"} {
		t.Run(pin, func(t *testing.T) {
			ver := `"adcp_version":"` + pin + `",`
			ctrl := func(args string) wire.Lenient {
				t.Helper()
				r := call(t, cs, "comply_test_controller", `{`+ver+account+`,`+args+`}`)
				if r.Error != nil {
					t.Fatalf("comply_test_controller %s: %+v", args, r.Error)
				}
				return wire.Lenient(r.Data)
			}
			list := string(ctrl(`"scenario":"list_scenarios"`).Get("scenarios"))
			for _, s := range []string{"force_get_products_arm", "force_task_completion", "force_upstream_unavailable"} {
				if !strings.Contains(list, `"`+s+`"`) {
					t.Errorf("list_scenarios lacks %s: %s", s, list)
				}
			}
			id := "task_discovery_" + strings.ReplaceAll(pin, ".", "_")
			if v := ctrl(`"scenario":"force_get_products_arm","params":{"arm":"submitted","task_id":"` + id + `"}`); !v.Get("forced").Get("task_id").StringIs(id) {
				t.Fatalf("directive: %s", v)
			}
			products := func(mode, key string) *wire.Lenient {
				t.Helper()
				r := call(t, cs, "get_products", `{`+ver+account+`,"idempotency_key":"`+key+`-`+pin+`","buying_mode":"`+mode+`"`+
					map[bool]string{true: `,"brief":"Curate display inventory"`, false: ``}[mode == "brief"]+`}`)
				if r.Error != nil {
					t.Fatalf("get_products (%s): %+v", mode, r.Error)
				}
				v := wire.Lenient(r.Data)
				return &v
			}
			if v := products("wholesale", "wholesale-0001"); v.Get("status").StringIs("submitted") {
				t.Fatalf("a wholesale feed took the directive: %s", *v)
			}
			if v := products("brief", "brief-0000001"); !v.Get("status").StringIs("submitted") || !v.Get("task_id").StringIs(id) || v.Get("products").Present() {
				t.Fatalf("the forced arm: %s", *v)
			}
			result := `{"status":"completed","products":[],"cache_scope":"public","context":{"correlation_id":"terminal"}}`
			if v := ctrl(`"scenario":"force_task_completion","params":{"task_id":"` + id + `","result":` + result + `}`); !v.Get("current_state").StringIs("completed") {
				t.Fatalf("force_task_completion: %s", v)
			}
			st := call(t, cs, "get_task_status", `{`+ver+account+`,"task_id":"`+id+`","include_result":true}`)
			if r := wire.Lenient(st.Data).Get("result"); st.Error != nil || !r.Get("cache_scope").StringIs("public") || !r.Get("context").Get("correlation_id").StringIs("terminal") {
				t.Fatalf("get_task_status: %+v %s", st.Error, st.Data)
			}

			if v := ctrl(`"scenario":"force_upstream_unavailable","params":{"tool":"get_products","upstream_name":"inventory-service"}`); !v.Get("current_state").StringIs("unavailable") {
				t.Fatalf("force_upstream_unavailable: %s", v)
			}
			stale := products("brief", "stale-0000001")
			e := stale.Get("errors").Index(0)
			if !e.Get("code").StringIs("STALE_RESPONSE") || string(e.Get("details").Get("served_from_cache")) != "true" ||
				!e.Get("details").Get("cache_age_seconds").Present() || !e.Get("details").Get("upstream").Get("name").StringIs("inventory-service") ||
				!stale.Get("products").Index(0).Present() {
				t.Fatalf("the stale answer: %s", *stale)
			}
			if fresh := products("brief", "fresh-0000001"); fresh.Get("errors").Present() {
				t.Fatalf("the answer after: %s", *fresh)
			}

			// A directive is for the caller's next call of its tool: one left
			// behind lapses on a call of another tool, and discovery after it
			// answers as usual.
			ctrl(`"scenario":"force_get_products_arm","params":{"arm":"submitted","task_id":"task_left_` + strings.ReplaceAll(pin, ".", "_") + `"}`)
			ctrl(`"scenario":"force_upstream_unavailable","params":{"tool":"get_products"}`)
			if r := call(t, cs, "list_creative_formats", `{`+ver+`"context":{"step":"another storyboard"}}`); r.Error != nil {
				t.Fatalf("list_creative_formats: %+v", r.Error)
			}
			if v := products("brief", "after-lapse-01"); v.Get("status").StringIs("submitted") || v.Get("errors").Present() || !v.Get("products").Index(0).Present() {
				t.Fatalf("a lapsed directive took the call: %s", *v)
			}
		})
	}
}
