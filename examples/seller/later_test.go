package main

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"example.com/seller/adcp"
	"example.com/seller/adcp31"
	"example.com/seller/adcp32"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Proposals in each release: a brief gets two (a balanced plan and a
// focused one); a finalize goes alone (INVALID_REQUEST naming the other
// entry); two finalizes commit both, each acknowledged in order; an
// unknown proposal is the release's not-found code (3.0 has no
// PROPOSAL_NOT_FOUND), on refine and on create_media_buy alike.
func TestProposalsPerRelease(t *testing.T) {
	base := startAgent(t)
	ctx := t.Context()
	m := mcpSession(t, base)
	n := 0
	for _, tc := range []struct {
		spec     *registry.Spec
		notFound string
	}{{adcp.Spec(), "REFERENCE_NOT_FOUND"}, {adcp31.Spec(), "PROPOSAL_NOT_FOUND"}, {adcp32.Spec(), "PROPOSAL_NOT_FOUND"}} {
		c, err := buyer.New(tc.spec, m)
		if err != nil {
			t.Fatal(err)
		}
		pin := c.Release()
		invoke := func(tool, args string) *buyer.Reply {
			t.Helper()
			r, err := c.Invoke(ctx, tool, json.RawMessage(args))
			if err != nil {
				t.Fatalf("%s %s: %v", pin, tool, err)
			}
			return r
		}
		errOf := func(tool, args string) (code, field string) {
			t.Helper()
			_, err := c.Invoke(ctx, tool, json.RawMessage(args))
			var ae *adcperr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("%s %s: %v, want an AdCP error", pin, tool, err)
			}
			return ae.Code, ae.Field
		}
		brief := wire.Lenient(invoke("get_products", `{"buying_mode":"brief","brief":"Premium video and display, Q2 flight",`+acme+`}`).Data)
		first, _ := brief.Get("proposals").Index(0).Get("proposal_id").AsString()
		second, _ := brief.Get("proposals").Index(1).Get("proposal_id").AsString()
		if first != "balanced_reach_q2" || second != "focused_reach_q2" {
			t.Fatalf("%s: proposals %q and %q", pin, first, second)
		}
		finalize := func(id string) string { return `{"scope":"proposal","proposal_id":"` + id + `","action":"finalize"}` }
		if code, field := errOf("get_products", `{"buying_mode":"refine","refine":[`+finalize(first)+`,{"scope":"request","ask":"More CTV"}],`+acme+`}`); code != "INVALID_REQUEST" || field != "refine[1]" {
			t.Errorf("%s: finalize with a request refinement: %s %s", pin, code, field)
		}
		if code, _ := errOf("get_products", `{"buying_mode":"refine","refine":[`+finalize(first)+`,`+finalize("nope")+`],`+acme+`}`); code != tc.notFound {
			t.Errorf("%s: finalizing an unknown proposal with a known one: %s", pin, code)
		}
		buyArgs := func(proposal string) string {
			n++
			return `{"idempotency_key":"proposal-release-key-` + strconv.Itoa(100000+n) + `",` + acme + `,"brand":{"domain":"acmeoutdoor.example"},` +
				`"proposal_id":"` + proposal + `","total_budget":{"amount":1000,"currency":"USD"},"start_time":"asap","end_time":"2026-12-31T00:00:00Z"}`
		}
		if code, _ := errOf("create_media_buy", buyArgs(first)); code != "PROPOSAL_NOT_COMMITTED" {
			t.Errorf("%s: after the refused finalizes, buying the known proposal: %s (it was committed)", pin, code)
		}
		both := wire.Lenient(invoke("get_products", `{"buying_mode":"refine","refine":[`+finalize(first)+`,`+finalize(second)+`],`+acme+`}`).Data)
		for i, id := range []string{first, second} {
			if !both.Get("proposals").Index(i).Get("proposal_status").StringIs("committed") ||
				!both.Get("refinement_applied").Index(i).Get("proposal_id").StringIs(id) || !both.Get("refinement_applied").Index(i).Get("status").StringIs("applied") {
				t.Errorf("%s: two finalizes: %s", pin, both)
			}
		}
		if code, field := errOf("get_products", `{"buying_mode":"refine","refine":[{"scope":"proposal","proposal_id":"nope"}],`+acme+`}`); code != tc.notFound || field != "refine[0].proposal_id" {
			t.Errorf("%s: refining an unknown proposal: %s", pin, code)
		}
		code, _ := errOf("create_media_buy", buyArgs("nope"))
		if code != tc.notFound {
			t.Errorf("%s: buying an unknown proposal: %s", pin, code)
		}
	}
}

// A flight that starts in the past is refused, on every release (3.1's
// schema_validation wants INVALID_REQUEST; 3.0 allowed adjusting it).
func TestPastStartRefused(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	args := strings.Replace(buyArgs("past-start-key-0000000001", "", ""), `"start_time":"asap"`, `"start_time":"2020-01-01T00:00:00Z"`, 1)
	r := call(t, cs, "create_media_buy", args)
	if r.Error == nil || r.Error.Code != "INVALID_REQUEST" || r.Error.Field != "start_time" {
		t.Fatalf("a past start: %s %+v", r.Data, r.Error)
	}
}

// Account-level subscribers (sync_accounts' notification_configs, 3.1 and
// later): created paused and echoed, a duplicate subscriber_id refused per
// account with its field, replaced in settings-update mode (the account
// named, not provisioned), echoed by list_accounts, [] clearing them; a
// 3.0 buyer sees none of it.
func TestAccountSubscribers(t *testing.T) {
	base := startAgent(t)
	ctx := t.Context()
	m := mcpSession(t, base)
	n := 0
	for _, sp := range []*registry.Spec{adcp31.Spec(), adcp32.Spec()} {
		c, err := buyer.New(sp, m)
		if err != nil {
			t.Fatal(err)
		}
		pin := c.Release()
		sync := func(entry string) wire.Lenient {
			t.Helper()
			n++
			r, err := c.Invoke(ctx, "sync_accounts", json.RawMessage(`{"idempotency_key":"subscriber-key-`+strconv.Itoa(100000+n)+`","accounts":[`+entry+`]}`))
			if err != nil {
				t.Fatalf("%s: %v", pin, err)
			}
			return wire.Lenient(r.Data).Get("accounts").Index(0)
		}
		config := func(id, url, event string) string {
			return `{"subscriber_id":"` + id + `","url":"https://example.com/` + url + `","event_types":["` + event + `"],"active":false}`
		}
		brand := `"brand":{"domain":"subscriber.example"},"operator":"pinnacle-agency.example","billing":"operator"`
		created := sync(`{` + brand + `,"notification_configs":[` + config("primary", "a", "creative.status_changed") + `]}`)
		id, _ := created.Get("account_id").AsString()
		if !created.Get("notification_configs").Index(0).Get("subscriber_id").StringIs("primary") || string(created.Get("notification_configs").Index(0).Get("active")) != "false" {
			t.Fatalf("%s: created %s", pin, created)
		}
		dup := sync(`{` + brand + `,"notification_configs":[` + config("primary", "a", "creative.status_changed") + `,` + config("primary", "b", "creative.purged") + `]}`)
		if !dup.Get("action").StringIs("failed") || !dup.Get("errors").Index(0).Get("field").StringIs("notification_configs[1].subscriber_id") {
			t.Errorf("%s: a duplicate subscriber: %s", pin, dup)
		}
		// A media-buy event at the account level fails the account, the
		// field named (3.2's schema enumerates the account-level events:
		// the seller, not the framework, answers the violation).
		raw := mcpBuyer(t, base, testKey)
		r := call(t, raw, "sync_accounts", `{"adcp_version":"`+pin+`","idempotency_key":"subscriber-scope-`+pin+`","accounts":[{`+brand+
			`,"notification_configs":[`+config("reports", "r", "scheduled")+`]}]}`)
		if a := wire.Lenient(r.Data).Get("accounts").Index(0); r.Error != nil || !a.Get("action").StringIs("failed") ||
			!a.Get("errors").Index(0).Get("field").StringIs("notification_configs[0].event_types[0]") {
			t.Errorf("%s: a scheduled subscriber: %+v %s", pin, r.Error, r.Data)
		}
		updated := sync(`{"account":{"account_id":"` + id + `"},"payment_terms":"net_45","notification_configs":[` + config("primary", "paused", "creative.purged") + `]}`)
		if !updated.Get("action").StringIs("updated") || !updated.Get("account_id").StringIs(id) || !updated.Get("brand").Get("domain").StringIs("subscriber.example") ||
			!updated.Get("notification_configs").Index(0).Get("url").StringIs("https://example.com/paused") || updated.Get("notification_configs").Index(1).Present() {
			t.Errorf("%s: settings update: %s", pin, updated)
		}
		if missing := sync(`{"account":{"account_id":"acct_404"},"payment_terms":"net_45"}`); !missing.Get("action").StringIs("failed") {
			t.Errorf("%s: settings update of no account: %s", pin, missing)
		}
		list := func() wire.Lenient {
			r, err := c.Invoke(ctx, "list_accounts", json.RawMessage(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			var found wire.Lenient
			wire.Lenient(r.Data).Get("accounts").Elems(func(a wire.Lenient) bool {
				if a.Get("account_id").StringIs(id) {
					found = a
				}
				return found == nil
			})
			return found
		}
		if got := list(); !got.Get("notification_configs").Index(0).Get("subscriber_id").StringIs("primary") {
			t.Errorf("%s: listed %s", pin, got)
		}
		if r, err := c.Invoke(ctx, "list_accounts", json.RawMessage(`{"account":{"account_id":"`+id+`"}}`)); err != nil ||
			!wire.Lenient(r.Data).Get("accounts").Index(0).Get("account_id").StringIs(id) || wire.Lenient(r.Data).Get("accounts").Index(1).Present() {
			t.Errorf("%s: list_accounts of one account: %v", pin, err)
		}
		sync(`{"account":{"account_id":"` + id + `"},"notification_configs":[]}`)
		if got := list(); string(got.Get("notification_configs")) != "[]" {
			t.Errorf("%s: listed after clearing: %s", pin, got)
		}
	}
	c, err := buyer.New(adcp.Spec(), m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Invoke(ctx, "list_accounts", json.RawMessage(`{}`))
	if err != nil || wire.Lenient(r.Data).Get("accounts").Index(0).Get("notification_configs").Present() {
		t.Errorf("3.0: %v %s", err, r.Data)
	}
}

// A buy keeps create_media_buy's context and each package's: the create
// answer's packages echo theirs, and get_media_buys echoes both (3.1's
// persisted media-buy context; valid on 3.0, whose media buys admit it).
func TestBuyContextPersisted(t *testing.T) {
	base := startAgent(t)
	ctx := t.Context()
	m := mcpSession(t, base)
	for i, sp := range []*registry.Spec{adcp.Spec(), adcp31.Spec(), adcp32.Spec()} {
		c, err := buyer.New(sp, m)
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Replace(buyArgs("context-key-00000000"+strconv.Itoa(i), "", `"context":{"correlation_id":"buy-`+strconv.Itoa(i)+`"}`), `"context":{"trace":"t-1"},`, ``, 1)
		args = strings.Replace(args, `"pricing_option_id":"test-pricing"}`, `"pricing_option_id":"test-pricing","context":{"buyer_ref":"line-1"}}`, 1)
		r, err := c.Invoke(ctx, "create_media_buy", json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: %v", c.Release(), err)
		}
		created := wire.Lenient(r.Data)
		if !created.Get("packages").Index(0).Get("context").Get("buyer_ref").StringIs("line-1") {
			t.Errorf("%s: created %s", c.Release(), created)
		}
		id, _ := created.Get("media_buy_id").AsString()
		r, err = c.Invoke(ctx, "get_media_buys", json.RawMessage(`{`+acme+`,"media_buy_ids":["`+id+`"]}`))
		if err != nil {
			t.Fatalf("%s: %v", c.Release(), err)
		}
		got := wire.Lenient(r.Data).Get("media_buys").Index(0)
		if !got.Get("context").Get("correlation_id").StringIs("buy-"+strconv.Itoa(i)) || !got.Get("packages").Index(0).Get("context").Get("buyer_ref").StringIs("line-1") {
			t.Errorf("%s: get_media_buys %s", c.Release(), got)
		}
	}
}

// A seeded buy keeps its fixture's context and packages, one naming no
// product (package_correlation_legacy_fallback): get_media_buys shows the
// package id and context, and no product_id.
func TestSeededBuyPackages(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	r := call(t, cs, "comply_test_controller", `{"scenario":"seed_media_buy","params":{"media_buy_id":"legacy_buy","fixture":{"status":"active","currency":"USD",`+
		`"context":{"correlation_id":"legacy"},"packages":[{"package_id":"pkg_legacy","budget":5000,"currency":"USD","context":{"buyer_ref":"line-1"}}]}}}`)
	if r.Error != nil || string(wire.Lenient(r.Data).Get("success")) != "true" {
		t.Fatalf("seed: %s %+v", r.Data, r.Error)
	}
	got := wire.Lenient(call(t, cs, "get_media_buys", `{"media_buy_ids":["legacy_buy"]}`).Data).Get("media_buys").Index(0)
	pk := got.Get("packages").Index(0)
	if !got.Get("context").Get("correlation_id").StringIs("legacy") || !pk.Get("package_id").StringIs("pkg_legacy") ||
		pk.Get("product_id").Present() || !pk.Get("context").Get("buyer_ref").StringIs("line-1") {
		t.Fatalf("seeded buy %s", got)
	}
}

// list_creatives sorts as asked, newest first by default (the schema's
// created_date, desc).
func TestCreativeSort(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	for i, name := range []string{"Beta", "Alpha", "Gamma"} {
		call(t, cs, "sync_creatives", `{"idempotency_key":"sort-key-00000000`+strconv.Itoa(i)+`",`+acme+`,"creatives":[{"creative_id":"cr_`+name+`","name":"`+name+`",`+
			`"format_id":{"agent_url":"https://creative.adcontextprotocol.org","id":"display_300x250"},`+
			`"assets":{"image":{"asset_type":"image","url":"https://cdn.example/b.png","width":300,"height":250}}}]}`)
	}
	for _, tc := range []struct{ sort, want string }{
		{``, "cr_Gamma cr_Alpha cr_Beta"},
		{`,"sort":{"field":"name","direction":"asc"}`, "cr_Alpha cr_Beta cr_Gamma"},
		{`,"sort":{"field":"created_date","direction":"asc"}`, "cr_Beta cr_Alpha cr_Gamma"},
	} {
		var ids []string
		wire.Lenient(call(t, cs, "list_creatives", `{`+acme+tc.sort+`}`).Data).Get("creatives").Elems(func(c wire.Lenient) bool {
			id, _ := c.Get("creative_id").AsString()
			ids = append(ids, id)
			return true
		})
		if got := strings.Join(ids, " "); got != tc.want {
			t.Errorf("sort %s: %s, want %s", tc.sort, got, tc.want)
		}
	}
}

// simulate_delivery's finality, measurement window and vendor metric
// values (3.1) are what get_media_buy_delivery reports: provisional rows
// without finalized_at, then final ones with it; vendor metrics on the
// package.
func TestDeliveryFinality(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	buy := call(t, cs, "create_media_buy", buyArgs("finality-key-000000001", "", ""))
	id, _ := wire.Lenient(buy.Data).Get("media_buy_id").AsString()
	simulate := func(extra string) {
		t.Helper()
		r := call(t, cs, "comply_test_controller", `{"scenario":"simulate_delivery","params":{"media_buy_id":"`+id+`","impressions":1000,`+extra+`}}`)
		if string(wire.Lenient(r.Data).Get("success")) != "true" {
			t.Fatalf("simulate: %s %+v", r.Data, r.Error)
		}
	}
	delivery := func() wire.Lenient {
		t.Helper()
		r := call(t, cs, "get_media_buy_delivery", `{"adcp_version":"3.1","media_buy_ids":["`+id+`"]}`)
		if r.Error != nil {
			t.Fatalf("delivery: %+v", r.Error)
		}
		return wire.Lenient(r.Data).Get("media_buy_deliveries").Index(0)
	}
	simulate(`"is_final":false,"measurement_window":"post_givt","vendor_metric_values":[{"vendor":{"domain":"attention.example"},"metric_id":"units","value":4.2,"measurable_impressions":900}]`)
	d := delivery()
	row := d.Get("by_package").Index(0)
	if string(d.Get("is_final")) != "false" || d.Get("finalized_at").Present() || string(row.Get("is_final")) != "false" || !row.Get("measurement_window").StringIs("post_givt") ||
		!row.Get("vendor_metric_values").Index(0).Get("metric_id").StringIs("units") || string(row.Get("vendor_metric_values").Index(0).Get("measurable_impressions")) != "900" {
		t.Errorf("provisional: %s", d)
	}
	simulate(`"is_final":true,"finalized_at":"2099-08-03T12:00:00Z","measurement_window":"post_sivt"`)
	d = delivery()
	row = d.Get("by_package").Index(0)
	if string(d.Get("is_final")) != "true" || !d.Get("finalized_at").StringIs("2099-08-03T12:00:00Z") || !row.Get("finalized_at").Present() || !row.Get("measurement_window").StringIs("post_sivt") {
		t.Errorf("final: %s", d)
	}
}

// A product's allowed_actions[] (3.1) become its buys' available_actions[]
// (create, get_media_buys, update), and a direct update is held to them:
// self-serve goes ahead, an approval-routed action or one in the wrong
// status is ACTION_NOT_ALLOWED with the details buyers recover from.
func TestAvailableActions(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	r := call(t, cs, "comply_test_controller", `{"adcp_version":"3.1","scenario":"seed_product","params":{"product_id":"actions_display","fixture":{"delivery_type":"non_guaranteed",`+
		`"channels":["display"],"format_ids":[{"id":"display_300x250"}],"pricing_options":[{"pricing_option_id":"cpm","pricing_model":"cpm","currency":"USD","floor_price":8}],`+
		`"allowed_actions":[{"action":"increase_budget","modes":["self_serve"],"sla":{"response_max":"PT5M","completion_max":"PT1H"}},`+
		`{"action":"extend_flight","modes":["requires_approval"]},{"action":"decrease_budget","modes":["self_serve"],"allowed_statuses":["paused"]}]}},`+
		`"account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example","sandbox":true}}`)
	if string(wire.Lenient(r.Data).Get("success")) != "true" {
		t.Fatalf("seed: %s %+v", r.Data, r.Error)
	}
	args := strings.Replace(buyArgs("actions-key-000000001", "", `"adcp_version":"3.1"`), `"product_id":"test-product","budget":5000,"pricing_option_id":"test-pricing"`,
		`"product_id":"actions_display","budget":5000,"pricing_option_id":"cpm"`, 1)
	created := call(t, cs, "create_media_buy", args)
	v := wire.Lenient(created.Data)
	id, _ := v.Get("media_buy_id").AsString()
	pkg, _ := v.Get("packages").Index(0).Get("package_id").AsString()
	if created.Error != nil || !v.Get("available_actions").Index(0).Get("action").StringIs("increase_budget") || v.Get("available_actions").Index(2).Present() {
		t.Fatalf("created: %s %+v", created.Data, created.Error)
	}
	got := wire.Lenient(call(t, cs, "get_media_buys", `{"adcp_version":"3.1","media_buy_ids":["`+id+`"]}`).Data).Get("media_buys").Index(0)
	if !got.Get("available_actions").Index(1).Get("mode").StringIs("requires_approval") {
		t.Errorf("get_media_buys: %s", got)
	}
	update := func(n int, change string) *extract.Result {
		return call(t, cs, "update_media_buy", `{"adcp_version":"3.1",`+acme+`,"idempotency_key":"actions-update-key-0000`+strconv.Itoa(n)+`","media_buy_id":"`+id+`",`+change+`}`)
	}
	if r := update(1, `"packages":[{"package_id":"`+pkg+`","budget":6000}]`); r.Error != nil || !wire.Lenient(r.Data).Get("available_actions").Present() {
		t.Errorf("increase: %s %+v", r.Data, r.Error)
	}
	for i, tc := range []struct{ change, action, reason string }{
		{`"end_time":"2099-09-30T23:59:59Z"`, "extend_flight", "mode_mismatch"},
		{`"packages":[{"package_id":"` + pkg + `","budget":1000}]`, "decrease_budget", "wrong_status"},
		{`"paused":true`, "pause", "not_supported_on_product"},
	} {
		r := update(2+i, tc.change)
		if r.Error == nil || r.Error.Code != "ACTION_NOT_ALLOWED" {
			t.Errorf("%s: %s %+v", tc.action, r.Data, r.Error)
			continue
		}
		d := wire.Lenient(r.Error.RawDetails())
		if !d.Get("attempted_action").StringIs(tc.action) || !d.Get("reason").StringIs(tc.reason) || !d.Get("currently_available_actions").IsArray() {
			t.Errorf("%s: details %s", tc.action, d)
		}
	}
}
