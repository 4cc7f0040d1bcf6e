// Package govagent is an example campaign governance agent built on the
// same framework as the example seller (runtime/seller on MCP): it keeps
// the plans buyers sync (sync_plans) and answers the checks sellers make
// before committing spend (check_governance), so the seller's governance
// path (runtime/sellergov) can be exercised end to end on loopback, and
// the compliance storyboards' governance agent run locally.
//
// Its policy is deliberately simple: a buy larger than the plan's budget
// is denied, with a budget_authority finding; a plan's "must" custom
// policies are conditions the buy meets by acknowledging each one
// (ext.policy_acknowledgements.<policy_id>: true), checked again; anything
// else is approved, with a governance context token: a compact JWS
// (ES256, typ "adcp-gc+jwt") naming the plan, the check, the caller and an
// expiry, signed with a key made at start-up. Plans, checks and outcomes
// are kept in memory and shared by every caller (a single-tenant agent).
package govagent

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"example.com/seller/adcp"
	"example.com/seller/internal/jws"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Config configures the agent.
type Config struct {
	// URL is where the agent is served (its MCP endpoint): the issuer of
	// its governance context tokens.
	URL string
	// Schemas are the 3.0.26 schemas every request and answer is checked
	// against.
	Schemas *spec.Tree
	// Keys map the bearer keys the agent accepts to the principals they
	// stand for: the buyer that syncs plans, the sellers that check.
	Keys   map[string]string
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Releases are later AdCP releases the agent serves too, on the same
	// endpoint, through its 3.0.26 handlers (seller.Bridge): a buyer that
	// speaks 3.2 discovers it in 3.2.
	Releases []Release
}

// Release is a later release the agent serves: its spec and the schemas
// its requests and answers are checked against.
type Release struct {
	Spec    *registry.Spec
	Schemas *spec.Tree
}

// plan is a synced plan.
type plan struct {
	id       string
	version  int64
	total    float64
	currency string
	policies []adcp.PolicyEntry
}

// check is a check_governance answer the agent gave.
type check struct {
	id, plan, verdict string
	amount            float64
}

type agent struct {
	cfg   Config
	key   *ecdsa.PrivateKey
	kid   string
	mu    sync.Mutex
	plans map[string]*plan
	log   []check
	seq   int
}

// New returns the agent's MCP handler (mount it at the URL's path).
func New(cfg Config) (http.Handler, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	jwk, err := jws.PublicJWK(key)
	if err != nil {
		return nil, err
	}
	a := &agent{cfg: cfg, key: key, kid: jwk["kid"], plans: map[string]*plan{}}
	srv, err := seller.New(adcp.Spec(), seller.Options{
		Logger: cfg.Logger, Schemas: cfg.Schemas, ValidateResponses: cfg.Schemas != nil,
		Authenticator: seller.APIKeys(cfg.URL, cfg.Keys),
		Capabilities:  []byte(`{"adcp":{"idempotency":{"supported":false}}}`),
	})
	if err != nil {
		return nil, err
	}
	seller.HandleSync(srv, adcp.Tools.SyncPlans, a.syncPlans)
	seller.HandleSync(srv, adcp.Tools.CheckGovernance, a.checkGovernance)
	seller.HandleSync(srv, adcp.Tools.ReportPlanOutcome, a.reportPlanOutcome)
	seller.HandleSync(srv, adcp.Tools.GetPlanAuditLogs, a.getPlanAuditLogs)
	for _, r := range cfg.Releases {
		later, err := seller.New(r.Spec, seller.Options{
			Logger: cfg.Logger, Schemas: r.Schemas, ValidateResponses: r.Schemas != nil,
			Capabilities: []byte(`{"adcp":{"idempotency":{"supported":false}}}`),
		})
		if err != nil {
			return nil, fmt.Errorf("the agent's server of %s: %w", r.Spec.Version(), err)
		}
		var be *seller.BridgeError
		if err := later.Bridge(srv, nil); err != nil && !errors.As(err, &be) {
			return nil, err
		}
		if err := srv.AddRelease(later); err != nil {
			return nil, err
		}
	}
	return mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true, AcceptJSONOnly: true})
}

// syncPlans upserts the plans; a plan synced again gets a new version.
func (a *agent) syncPlans(ctx context.Context, req *adcp.SyncPlansRequest) (*adcp.SyncPlansResponse, error) {
	args := wire.Lenient(seller.CallFrom(ctx).Arguments)
	out := &adcp.SyncPlansResponse{Plans: []adcp.SyncPlansResponsePlan{}}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, in := range req.Plans {
		budget := args.Get("plans").Index(i).Get("budget")
		total, _ := budget.Get("total").Number()
		currency, _ := budget.Get("currency").AsString()
		p := a.plans[in.PlanID]
		if p == nil {
			p = &plan{id: in.PlanID}
			a.plans[in.PlanID] = p
		}
		p.version++
		p.total, p.currency, p.policies = total, currency, in.CustomPolicies
		out.Plans = append(out.Plans, adcp.SyncPlansResponsePlan{PlanID: p.id, Status: "active", Version: p.version})
	}
	return out, nil
}

// checkGovernance decides on the action the caller describes (its
// payload): see the package documentation.
func (a *agent) checkGovernance(ctx context.Context, req *adcp.CheckGovernanceRequest) (*adcp.CheckGovernanceResponse, error) {
	now := a.cfg.Now().UTC().Truncate(time.Second)
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.plans[req.PlanID]
	if p == nil {
		return nil, &adcperr.Error{Code: "PLAN_NOT_FOUND", Message: "No plan " + strconv.Quote(req.PlanID) + " was synced", Field: "plan_id"}
	}
	amount := spend(wire.Lenient(seller.CallFrom(ctx).Arguments).Get("payload"))
	a.seq++
	resp := &adcp.CheckGovernanceResponse{CheckID: "chk_" + strconv.Itoa(a.seq), PlanID: p.id,
		CategoriesEvaluated: []string{"budget_authority"}}
	for _, pol := range p.policies {
		resp.PoliciesEvaluated = append(resp.PoliciesEvaluated, pol.PolicyID)
	}
	acks := wire.Lenient(seller.CallFrom(ctx).Arguments).Get("payload").Get("ext").Get("policy_acknowledgements")
	var conds []adcp.CheckGovernanceResponseCondition
	for _, pol := range p.policies {
		if pol.Enforcement == "must" && string(acks.Get(pol.PolicyID)) != "true" {
			conds = append(conds, adcp.CheckGovernanceResponseCondition{Field: "ext.policy_acknowledgements." + pol.PolicyID,
				RequiredValue: []byte("true"), Reason: pol.Policy})
		}
	}
	expires := wire.DateTime(now.Add(time.Hour).Format(time.RFC3339))
	switch {
	case amount > p.total:
		resp.Status = adcp.GovernanceDecisionDenied
		resp.Explanation = fmt.Sprintf("The buy commits %.2f %s; plan %s authorizes %.2f", amount, p.currency, p.id, p.total)
		resp.Findings = []adcp.CheckGovernanceResponseFinding{{CategoryID: "budget_authority", Severity: adcp.EscalationSeverityCritical, Explanation: resp.Explanation}}
	case len(conds) > 0:
		resp.Status = adcp.GovernanceDecisionConditions
		resp.Explanation = fmt.Sprintf("Plan %s's policies apply to this buy: acknowledge them and check again", p.id)
		resp.Conditions, resp.ExpiresAt = conds, &expires
	default:
		resp.Status = adcp.GovernanceDecisionApproved
		resp.Explanation = fmt.Sprintf("Within plan %s's budget authority", p.id)
		token, err := jws.Sign(a.key, a.kid, "adcp-gc+jwt", map[string]any{
			"iss": a.cfg.URL, "aud": req.Caller, "sub": p.id, "jti": resp.CheckID,
			"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "verdict": "approved",
		})
		if err != nil {
			return nil, err
		}
		resp.GovernanceContext, resp.ExpiresAt = &token, &expires
	}
	a.log = append(a.log, check{id: resp.CheckID, plan: p.id, verdict: string(resp.Status), amount: amount})
	return resp, nil
}

// spend is what an action commits: a media buy's total budget, else the
// sum of its packages' budgets.
func spend(payload wire.Lenient) float64 {
	if total, ok := payload.Get("total_budget").Get("amount").Number(); ok {
		return total
	}
	if total, ok := payload.Get("total_budget").Number(); ok {
		return total
	}
	sum := 0.0
	payload.Get("packages").Elems(func(p wire.Lenient) bool {
		b, _ := p.Get("budget").Number()
		sum += b
		return true
	})
	return sum
}

// reportPlanOutcome takes an outcome of a check the agent gave.
func (a *agent) reportPlanOutcome(_ context.Context, req *adcp.ReportPlanOutcomeRequest) (*adcp.ReportPlanOutcomeResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.plans[req.PlanID] == nil {
		return nil, &adcperr.Error{Code: "PLAN_NOT_FOUND", Message: "No plan " + strconv.Quote(req.PlanID) + " was synced", Field: "plan_id"}
	}
	a.seq++
	return &adcp.ReportPlanOutcomeResponse{OutcomeID: "out_" + strconv.Itoa(a.seq), Status: adcp.ReportPlanOutcomeResponseStatusAccepted}, nil
}

// getPlanAuditLogs reports each plan named: its budget and the checks.
func (a *agent) getPlanAuditLogs(_ context.Context, req *adcp.GetPlanAuditLogsRequest) (*adcp.GetPlanAuditLogsResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := &adcp.GetPlanAuditLogsResponse{Plans: []adcp.GetPlanAuditLogsResponsePlan{}}
	for _, id := range req.PlanIDs {
		p := a.plans[id]
		if p == nil {
			continue
		}
		committed, n := 0.0, int64(0)
		for _, c := range a.log {
			if c.plan == id {
				n++
				if c.verdict == "approved" {
					committed += c.amount
				}
			}
		}
		remaining := p.total - committed
		out.Plans = append(out.Plans, adcp.GetPlanAuditLogsResponsePlan{PlanID: id, PlanVersion: p.version, Status: adcp.GetPlanAuditLogsResponsePlanStatusActive,
			Budget:          adcp.GetPlanAuditLogsResponsePlanBudget{Authorized: &p.total, Committed: &committed, Remaining: &remaining},
			Summary:         adcp.GetPlanAuditLogsResponsePlanSummary{ChecksPerformed: &n},
			GovernedActions: []adcp.GetPlanAuditLogsResponsePlanGovernedAction{}})
	}
	return out, nil
}
