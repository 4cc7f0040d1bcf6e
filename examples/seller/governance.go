package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellergov"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Campaign governance, the seller's side. sync_governance registers the
// buyer's governance agents on an account (replacing the ones it had);
// create_media_buy on that account, naming the campaign plan (plan_id),
// consults the agent covering budget authority with check_governance
// (runtime/sellergov, through adcpgen's own client over MCP) before
// committing: approved buys go ahead; conditions with a required value
// are applied to the buy and checked again; a denial is GOVERNANCE_DENIED
// with the agent's findings; an agent that cannot be reached is
// GOVERNANCE_UNAVAILABLE, and nothing is bought.
//
// A buy without plan_id is not checked: check_governance needs the plan,
// and this seller does not guess one. (AdCP makes plan_id required on an
// account with governance agents; the published compliance storyboards
// register agents and then buy without one, adcontextprotocol/adcp#7547,
// so this seller does not refuse such buys either.)

// governanceConfig is how the seller reaches governance agents.
type governanceConfig struct {
	// Loopback lets agents on loopback be called (http or https): tests
	// only, as for webhooks.
	Loopback bool
	// LoopbackOnly refuses any other host before resolving it.
	LoopbackOnly bool
	// RootCAs verify agents' certificates (a test authority); nil uses the
	// system's.
	RootCAs *x509.CertPool
}

// newGovernance returns the checker that calls agents over MCP with their
// registered credentials, through the client that refuses internal
// addresses.
func newGovernance(callerURL string, cfg governanceConfig) (*sellergov.Checker, error) {
	dial := func(ctx context.Context, a sellergov.GovernanceAgent) (buyer.Transport, io.Closer, error) {
		if _, err := untrusted.CheckPushURL(a.URL, untrusted.PushURLPolicy{AllowLoopback: cfg.Loopback}); err != nil {
			return nil, nil, err
		}
		hc := untrusted.NewHTTPClient(untrusted.ClientOptions{
			Policy: untrusted.PushURLPolicy{AllowLoopback: cfg.Loopback}, LoopbackOnly: cfg.LoopbackOnly, RootCAs: cfg.RootCAs,
		})
		base := hc.Transport
		hc.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
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
	return sellergov.NewChecker(adcp.Spec(), sellergov.CheckerOptions{Dial: dial, Caller: callerURL})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// syncGovernance replaces each account's governance agents. The
// credentials are kept to call the agent with and never sent back.
func (s *sales) syncGovernance(ctx context.Context, req *adcp.SyncGovernanceRequest) (*adcp.SyncGovernanceResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	out := adcp.SyncGovernanceSuccess{Accounts: []adcp.SyncGovernanceSuccessAccount{}}
	for _, entry := range req.Accounts {
		key, _ := s.accounts.key(p.ID, entry.Account)
		var agents []sellergov.GovernanceAgent
		res := adcp.SyncGovernanceSuccessAccount{Account: entry.Account, Status: adcp.SyncGovernanceSuccessAccountStatusSynced,
			GovernanceAgents: []adcp.SyncGovernanceSuccessAccountGovernanceAgent{}}
		for _, g := range entry.GovernanceAgents {
			scheme := "Bearer"
			if len(g.Authentication.Schemes) > 0 {
				scheme = string(g.Authentication.Schemes[0])
			}
			agents = append(agents, sellergov.GovernanceAgent{URL: g.URL, Scheme: scheme, Credentials: g.Authentication.Credentials, Categories: g.Categories})
			res.GovernanceAgents = append(res.GovernanceAgents, adcp.SyncGovernanceSuccessAccountGovernanceAgent{URL: g.URL, Categories: g.Categories})
		}
		s.accounts.governance.Sync(p.ID, key, agents)
		out.Accounts = append(out.Accounts, res)
	}
	r := adcp.NewSyncGovernanceResponseSuccess(out)
	return &r, nil
}

// govern consults the account's budget-authority agent about a buy that
// names a plan, and returns the governance context to keep with the buy
// ("" when no check was due).
func (s *sales) govern(ctx context.Context, principal, accountKey string, req *adcp.CreateMediaBuyRequest) (string, error) {
	if req.PlanID == nil || s.governance == nil {
		return "", nil
	}
	agent, ok := s.accounts.governance.For(principal, accountKey, "budget_authority")
	if !ok {
		return "", nil
	}
	payload := json.RawMessage(`{}`)
	if c := seller.CallFrom(ctx); c != nil {
		payload = withoutMembers(c.Arguments, "idempotency_key", "context", "push_notification_config")
	}
	d, err := s.governance.Govern(ctx, agent, sellergov.CheckRequest{
		PlanID: *req.PlanID, Tool: "create_media_buy", PurchaseType: "media_buy", Phase: "purchase", Payload: payload,
	}, meetConditions)
	var ue *sellergov.UnavailableError
	if errors.As(err, &ue) {
		s.log.Warn("governance agent unavailable", "agent", ue.Agent, "err", ue.Err.Error())
	}
	return d.GovernanceContext, err
}

// meetConditions applies the conditions that carry a required value to
// the buy's payload (a field set, by its dot path); an advisory condition
// is one this seller cannot meet by itself.
func meetConditions(conds []sellergov.Condition, payload json.RawMessage) (json.RawMessage, error) {
	for _, c := range conds {
		if c.RequiredValue == nil || c.Field == "" {
			return nil, errors.New("advisory condition on " + c.Field + ": " + c.Reason)
		}
		out, err := setPath(payload, strings.Split(c.Field, "."), c.RequiredValue)
		if err != nil {
			return nil, err
		}
		payload = out
	}
	return payload, nil
}

// setPath sets the member at path (object keys) of obj to value, making
// the objects on the way.
func setPath(obj []byte, path []string, value []byte) ([]byte, error) {
	v := wire.Lenient(obj)
	if !v.IsObject() || len(path) == 0 || path[0] == "" {
		return nil, errors.New("condition field does not name an object member")
	}
	if len(path) > 1 {
		inner := []byte(v.Get(path[0]))
		if inner == nil {
			inner = []byte("{}")
		}
		var err error
		if value, err = setPath(inner, path[1:], value); err != nil {
			return nil, err
		}
	}
	out, ok := v.WithMember(path[0], value)
	if !ok {
		return nil, errors.New("condition field does not name an object member")
	}
	return out, nil
}

// withoutMembers is the JSON object args without the named members.
func withoutMembers(args []byte, names ...string) json.RawMessage {
	out := args
	for _, n := range names {
		if o, ok := wire.Lenient(out).WithoutMember(n); ok {
			out = o
		}
	}
	return out
}
