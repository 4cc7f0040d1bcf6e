package main

import (
	"crypto/tls"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/seller/govagent"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// govCredential is what the buyer registers for the seller to call the
// governance agent with (sync_governance's credentials, 32 characters at
// least).
const govCredential = "gov-token-0123456789abcdef0123456789abcdef"

// Campaign governance end to end on loopback: the example governance
// agent over MCP and TLS (as sync_governance's https:// URLs require), the
// buyer syncing plans there and registering it on its account here, and
// create_media_buy consulting it through adcpgen's own client: a denial
// is GOVERNANCE_DENIED with the agent's findings and buys nothing; a buy
// within the plan is made; a plan's policies come back as conditions the
// seller meets and checks again; an agent that cannot be reached is
// GOVERNANCE_UNAVAILABLE; a buy naming no plan is not checked.
func TestGovernance(t *testing.T) {
	tree, err := openSchemas()
	if err != nil {
		t.Fatal(err)
	}
	var gov http.Handler
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { gov.ServeHTTP(w, r) }))
	defer ts.Close()
	gov, err = govagent.New(govagent.Config{URL: ts.URL + "/mcp", Schemas: tree, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Keys: map[string]string{testKey: "buyer", govCredential: "seller"}})
	if err != nil {
		t.Fatal(err)
	}
	pool := ts.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	base, _ := startAgentOf(t, func(c *config) { c.Governance = governanceConfig{Loopback: true, LoopbackOnly: true, RootCAs: pool} })
	cs := mcpBuyer(t, base, testKey)

	planner, err := mcp.NewClient(&mcp.Implementation{Name: "buyer", Version: "1"}, nil).Connect(t.Context(), &mcp.StreamableClientTransport{
		Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearer{key: testKey, base: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}, Timeout: 30 * time.Second},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer planner.Close()
	if r := call(t, planner, "sync_plans", `{"idempotency_key":"plans-0000000000000001","plans":[`+
		`{"plan_id":"plan_small","brand":{"domain":"acmeoutdoor.example"},"objectives":"Test","budget":{"total":10000,"currency":"USD","reallocation_threshold":5000},"flight":{"start":"2099-01-01T00:00:00Z","end":"2099-06-30T00:00:00Z"}},`+
		`{"plan_id":"plan_policy","brand":{"domain":"acmeoutdoor.example"},"objectives":"CTV","budget":{"total":100000,"currency":"USD","reallocation_threshold":100000},"flight":{"start":"2099-01-01T00:00:00Z","end":"2099-06-30T00:00:00Z"},`+
		`"custom_policies":[{"policy_id":"ctv_weekly_reporting","enforcement":"must","policy":"CTV buys require weekly delivery reporting."}]}]}`); r.Error != nil {
		t.Fatalf("sync_plans: %+v", r.Error)
	}
	syncs := 0
	register := func(url string) {
		t.Helper()
		syncs++
		if r := call(t, cs, "sync_governance", `{"idempotency_key":"gov-sync-00000000000`+strconv.Itoa(syncs)+`","accounts":[{"account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example"},`+
			`"governance_agents":[{"url":"`+url+`","authentication":{"schemes":["Bearer"],"credentials":"`+govCredential+`"},"categories":["budget_authority"]}]}]}`); r.Error != nil {
			t.Fatalf("sync_governance: %+v", r.Error)
		}
	}
	register(ts.URL + "/mcp")
	buy := func(n int, plan string, budget string) (string, string) {
		t.Helper()
		args := strings.Replace(buyArgs("gov-buy-0000000000000"+string(rune('a'+n)), "", `"plan_id":"`+plan+`"`), `"budget":5000`, `"budget":`+budget, 1)
		if plan == "" {
			args = buyArgs("gov-buy-0000000000000"+string(rune('a'+n)), "", "")
		}
		r := call(t, cs, "create_media_buy", args)
		if r.Error != nil {
			return "", r.Error.Code + " " + r.Error.Message + " " + string(r.Error.Raw)
		}
		return member(r, "media_buy_id"), ""
	}

	if id, err := buy(0, "plan_small", "50000"); id != "" || !strings.HasPrefix(err, "GOVERNANCE_DENIED") || !strings.Contains(err, "budget_authority") {
		t.Errorf("over the plan's budget: %q %s", id, err)
	}
	if id, err := buy(1, "plan_small", "8000"); id == "" {
		t.Errorf("within the plan's budget: %s", err)
	}
	if id, err := buy(2, "plan_policy", "25000"); id == "" {
		t.Errorf("with the plan's conditions met: %s", err)
	}
	if id, err := buy(3, "plan_unknown", "1000"); id != "" || !strings.HasPrefix(err, "GOVERNANCE_UNAVAILABLE") {
		t.Errorf("a plan the agent does not know (no verdict): %q %s", id, err)
	}
	if id, err := buy(4, "", ""); id == "" {
		t.Errorf("a buy naming no plan: %s", err)
	}
	r := call(t, planner, "get_plan_audit_logs", `{"plan_ids":["plan_small","plan_policy"]}`)
	logs := wire.Lenient(r.Data).Get("plans")
	if n := string(logs.Index(0).Get("summary").Get("checks_performed")); n != "2" {
		t.Errorf("plan_small's checks: %s (%s)", n, r.Data)
	}
	if n := string(logs.Index(1).Get("summary").Get("checks_performed")); n != "2" {
		t.Errorf("plan_policy: conditions, then approved; checks %s", n)
	}

	ts2 := httptest.NewTLSServer(http.NotFoundHandler())
	url := ts2.URL + "/mcp"
	ts2.Close()
	register(url)
	if id, err := buy(5, "plan_small", "1000"); id != "" || !strings.HasPrefix(err, "GOVERNANCE_UNAVAILABLE") {
		t.Errorf("an unreachable agent: %q %s", id, err)
	}
}
