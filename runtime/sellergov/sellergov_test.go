package sellergov_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellergov"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

const govKey = "gov-token-0123456789abcdef0123456789abcdef"

// agent is a governance agent on the seller framework of the version,
// serving check_governance with a verdict per plan, its answers validated
// against the version's schema; seen records what each check asked.
type agent struct {
	url  string
	mu   sync.Mutex
	seen []string
}

func startAgent(t *testing.T, version string) *agent {
	t.Helper()
	tree, sp := specseller.Open(t, version)
	srv, err := seller.New(sp, seller.Options{Schemas: tree, ValidateResponses: true,
		Authenticator: seller.APIKeys("governance", map[string]string{govKey: "seller"})})
	if err != nil {
		t.Fatal(err)
	}
	a := &agent{}
	verdict := "verdict"
	envelope := `"status":"completed",`
	if version == "3.0.26" {
		verdict, envelope = "status", ""
	}
	srv.HandleRaw(seller.RawTool{Name: "check_governance", RequestSchema: "governance/check-governance-request.json",
		ResponseSchema: "governance/check-governance-response.json",
		Handler: func(_ context.Context, c *seller.Call) *seller.Answer {
			plan, _ := c.StringMember("plan_id")
			args := wire.Lenient(c.Arguments)
			freq, _ := args.Get("payload").Get("reporting_frequency").AsString()
			gc, _ := args.Get("governance_context").AsString()
			if cc, ok := args.Get("consultation_context").AsString(); ok {
				gc = cc
			}
			a.mu.Lock()
			a.seen = append(a.seen, plan+"|"+freq+"|"+gc)
			a.mu.Unlock()
			head := `{` + envelope + `"check_id":"chk_1","plan_id":"` + plan + `",`
			var body string
			switch {
			case version == "3.2.0-beta.5" && plan == "p-cond" && freq != "weekly":
				// 3.2's intent check: conditions come with a consultation
				// handle, and no governance context or expiry.
				body = head + `"check_type":"intent","verdict":"conditions","explanation":"CTV needs weekly reporting","consultation_context":"gc-1",` +
					`"conditions":[{"field":"reporting_frequency","required_value":"weekly","reason":"policy ctv_weekly_reporting"}]}`
			case plan == "p-deny":
				body = head + `"` + verdict + `":"denied","explanation":"Budget exceeds the plan's authority",` +
					`"findings":[{"category_id":"budget_authority","severity":"critical","explanation":"$50K over $10K"}]}`
			case plan == "p-cond" && freq != "weekly":
				body = head + `"` + verdict + `":"conditions","explanation":"CTV needs weekly reporting","expires_at":"2099-01-01T00:00:00Z",` +
					`"governance_context":"gc-1","conditions":[{"field":"reporting_frequency","required_value":"weekly","reason":"policy ctv_weekly_reporting"}]}`
			case plan == "p-garbage":
				body = head + `"` + verdict + `":"maybe","explanation":"?"}`
			default:
				body = head + `"` + verdict + `":"approved","explanation":"Within budget","expires_at":"2099-01-01T00:00:00Z","governance_context":"gc-ok"}`
			}
			return &seller.Answer{Status: task.Completed, Body: json.RawMessage(body)}
		}})
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewTLSServer(h)
	t.Cleanup(ts.Close)
	a.url = ts.URL
	pool = ts.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	return a
}

// pool trusts the test agents' certificate authority (httptest's, the
// same for every server).
var pool *x509.CertPool

// dial connects as the seller would: over MCP, with the registered
// credentials, through the client that refuses internal addresses
// (loopback allowed for the test server only).
func dial(ctx context.Context, a sellergov.GovernanceAgent) (buyer.Transport, io.Closer, error) {
	hc := untrusted.NewHTTPClient(untrusted.ClientOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}, LoopbackOnly: true, RootCAs: pool})
	base := hc.Transport
	hc.Transport = roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", a.Scheme+" "+a.Credentials)
		return base.RoundTrip(r)
	})
	s, err := mcpclient.ConnectHTTP(ctx, a.URL, hc, mcpclient.ConnectOptions{})
	if err != nil {
		return nil, nil, err
	}
	return s, s, nil
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// meetReporting meets a reporting_frequency condition by setting the
// payload member.
func meetReporting(conds []sellergov.Condition, payload json.RawMessage) (json.RawMessage, error) {
	for _, c := range conds {
		if c.Field != "reporting_frequency" || c.RequiredValue == nil {
			return nil, errors.New("cannot meet " + c.Field)
		}
		out, ok := wire.Lenient(payload).WithMember("reporting_frequency", c.RequiredValue)
		if !ok {
			return nil, errors.New("payload")
		}
		payload = out
	}
	return payload, nil
}

// The verdicts of each version, read from the agent's validated answers:
// approved proceeds with its context; conditions are met and checked
// again with the governance context; denied and unreadable verdicts are
// the buyer's GOVERNANCE_DENIED / GOVERNANCE_UNAVAILABLE.
func TestGovern(t *testing.T) {
	for _, v := range specseller.Versions {
		t.Run(v.Version, func(t *testing.T) {
			ag := startAgent(t, v.Version)
			_, sp := specseller.Open(t, v.Version)
			gov, err := sellergov.NewChecker(sp, sellergov.CheckerOptions{Dial: dial, Caller: "https://seller.example/mcp"})
			if err != nil {
				t.Fatal(err)
			}
			reg := sellergov.NewRegistry()
			reg.Sync("buyer", "acme", []sellergov.GovernanceAgent{{URL: ag.url, Scheme: "Bearer", Credentials: govKey, Categories: []string{"budget_authority"}}})
			a, ok := reg.For("buyer", "acme", "budget_authority")
			if !ok {
				t.Fatal("no agent")
			}
			check := func(plan string) sellergov.CheckRequest {
				q := sellergov.CheckRequest{PlanID: plan, Tool: "create_media_buy", PurchaseType: "media_buy", Phase: "purchase", Payload: json.RawMessage(`{"total_budget":25000}`)}
				if v.Version == "3.2.0-beta.5" {
					q.TargetAgent = "https://seller.example/mcp"
				}
				return q
			}
			ctx := t.Context()

			d, err := gov.Govern(ctx, a, check("p-ok"), meetReporting)
			if err != nil || d.Verdict != sellergov.Approved || d.GovernanceContext != "gc-ok" {
				t.Errorf("approved: %+v %v", d, err)
			}
			d, err = gov.Govern(ctx, a, check("p-cond"), meetReporting)
			if err != nil || d.Verdict != sellergov.Approved {
				t.Errorf("conditions met: %+v %v", d, err)
			}
			ag.mu.Lock()
			last := ag.seen[len(ag.seen)-2:]
			ag.mu.Unlock()
			if last[0] != "p-cond||" || last[1] != "p-cond|weekly|gc-1" {
				t.Errorf("conditions round trip: %q", last)
			}
			_, err = gov.Govern(ctx, a, check("p-cond"), nil)
			var ae *adcperr.Error
			if !errors.As(err, &ae) || ae.Code != "GOVERNANCE_DENIED" {
				t.Errorf("conditions not met: %v", err)
			}
			_, err = gov.Govern(ctx, a, check("p-deny"), meetReporting)
			if !errors.As(err, &ae) || ae.Code != "GOVERNANCE_DENIED" || ae.Recovery != "correctable" || !strings.Contains(ae.Message, "Budget exceeds") {
				t.Fatalf("denied: %v", err)
			}
			if f := ae.Details.(map[string]any)["findings"]; !strings.Contains(string(f.(json.RawMessage)), "budget_authority") {
				t.Errorf("findings not propagated: %+v", ae.Details)
			}
			_, err = gov.Govern(ctx, a, check("p-garbage"), meetReporting)
			var ue *sellergov.UnavailableError
			if !errors.As(err, &ae) || ae.Code != "GOVERNANCE_UNAVAILABLE" || ae.Recovery != "transient" || !errors.As(err, &ue) {
				t.Errorf("unreadable verdict: %v", err)
			}
			// Wrong credentials and an unreachable agent get no verdict.
			bad := a
			bad.Credentials = "wrong-0123456789abcdef0123456789abcdef"
			if _, err := gov.Check(ctx, bad, check("p-ok")); !errors.As(err, &ae) || ae.Code != "GOVERNANCE_UNAVAILABLE" {
				t.Errorf("refused credentials: %v", err)
			}
			gone := a
			gone.URL = "https://governance.example/mcp"
			if _, err := gov.Check(ctx, gone, check("p-ok")); !errors.As(err, &ue) || !errors.Is(err, untrusted.ErrNotLoopback) {
				t.Errorf("unreachable agent: %v", err)
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	r := sellergov.NewRegistry()
	r.Sync("b1", "acme", []sellergov.GovernanceAgent{{URL: "https://a", Categories: []string{"brand_policy"}}, {URL: "https://b"}})
	if a, ok := r.For("b1", "acme", "budget_authority"); !ok || a.URL != "https://b" {
		t.Errorf("For: %+v", a)
	}
	if _, ok := r.For("b2", "acme", ""); ok {
		t.Error("another principal's agents")
	}
	r.Sync("b1", "acme", []sellergov.GovernanceAgent{{URL: "https://c"}}) // replaces
	if got := r.Agents("b1", "acme"); len(got) != 1 || got[0].URL != "https://c" {
		t.Errorf("replace: %+v", got)
	}
	r.Sync("b1", "acme", nil)
	if got := r.Agents("b1", "acme"); len(got) != 0 {
		t.Errorf("remove: %+v", got)
	}
}
