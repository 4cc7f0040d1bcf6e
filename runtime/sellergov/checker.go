package sellergov

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Dialer connects to an agent: a Transport for runtime/buyer (an MCP
// session or an A2A connection) authenticated with the agent's
// credentials, and what closes it.
type Dialer func(ctx context.Context, a GovernanceAgent) (buyer.Transport, io.Closer, error)

// CheckerOptions configure a Checker.
type CheckerOptions struct {
	// Dial connects to agents. Required.
	Dial Dialer
	// Caller is the seller's own agent URL, check_governance's caller.
	// Required.
	Caller string
	// Timeout bounds one check, retries included; 0 means 30 seconds.
	Timeout time.Duration
	// MaxRounds bounds Govern's check, apply, check again loop; 0 means 3
	// checks.
	MaxRounds int
}

// Checker calls governance agents' check_governance for one spec version.
type Checker struct {
	spec *registry.Spec
	opts CheckerOptions
}

// NewChecker returns a Checker for spec (the version's check_governance
// and its error codes).
func NewChecker(spec *registry.Spec, opts CheckerOptions) (*Checker, error) {
	if opts.Dial == nil || opts.Caller == "" {
		return nil, errors.New("sellergov: CheckerOptions needs Dial and Caller")
	}
	if _, ok := spec.Tool(toolName); !ok {
		return nil, fmt.Errorf("sellergov: spec %s has no %s", spec.Version(), toolName)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.MaxRounds <= 0 {
		opts.MaxRounds = 3
	}
	return &Checker{spec: spec, opts: opts}, nil
}

const toolName = "check_governance"

// CheckRequest is what the seller asks about.
type CheckRequest struct {
	// PlanID is the campaign plan the buyer named (required).
	PlanID string
	// Tool is the AdCP tool being governed ("create_media_buy").
	Tool string
	// Payload is the tool's arguments as the seller would execute them (a
	// JSON object).
	Payload json.RawMessage
	// PurchaseType ("media_buy") and Phase ("purchase", "modification",
	// "delivery") are sent when set.
	PurchaseType, Phase string
	// GovernanceContext is the token of a prior check of the same action
	// (up to 3.1), ConsultationContext the negotiation handle of a prior
	// conditions verdict (3.2's intent checks).
	GovernanceContext, ConsultationContext string
	// TargetAgent is the agent that will execute the governed task, the
	// seller itself: 3.2 requires it on a check that names the tool, 3.0's
	// schema has no such member (leave it empty there).
	TargetAgent string
}

// Verdicts of check_governance (enums/governance-decision.json).
const (
	Approved   = "approved"
	Denied     = "denied"
	Conditions = "conditions"
)

// CheckResult is an agent's verdict.
type CheckResult struct {
	// Verdict is approved, denied or conditions (3.0 calls the member
	// status, 3.1 verdict).
	Verdict           string
	CheckID           string
	Explanation       string
	GovernanceContext string
	// ConsultationContext is the handle of a 3.2 conditions verdict, sent
	// back with the adjusted action.
	ConsultationContext string
	// ExpiresAt is when an approval lapses ("" when the agent gave none).
	ExpiresAt string
	// Conditions are the adjustments a conditions verdict asks for.
	Conditions []Condition
	// Findings are the agent's findings, as it sent them (nil for none).
	Findings json.RawMessage
	// Raw is the whole response.
	Raw json.RawMessage
}

// Condition is one adjustment the agent asks for.
type Condition struct {
	// Field is the dot path of the field to adjust (in the payload).
	Field string
	// RequiredValue is the value it must have; nil for an advisory
	// condition.
	RequiredValue json.RawMessage
	Reason        string
}

// Check calls check_governance on agent. A call that fails (the agent
// unreachable, an AdCP error, bytes the strict reader refuses, a verdict
// it does not know) is GOVERNANCE_UNAVAILABLE: no verdict was had.
func (c *Checker) Check(ctx context.Context, a GovernanceAgent, q CheckRequest) (CheckResult, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	body, err := c.request(q)
	if err != nil {
		return CheckResult{}, err
	}
	t, closer, err := c.opts.Dial(ctx, a)
	if err != nil {
		return CheckResult{}, c.unavailable(a, err)
	}
	defer closer.Close()
	client, err := buyer.New(c.spec, t)
	if err != nil {
		return CheckResult{}, c.unavailable(a, err)
	}
	reply, err := client.Invoke(ctx, toolName, body)
	if err != nil {
		return CheckResult{}, c.unavailable(a, err)
	}
	if reply.Status != task.Completed {
		return CheckResult{}, c.unavailable(a, fmt.Errorf("check_governance answered %s", reply.Status))
	}
	d, err := readDecision(reply.Data)
	if err != nil {
		return CheckResult{}, c.unavailable(a, err)
	}
	return d, nil
}

// request encodes q as check_governance's arguments.
func (c *Checker) request(q CheckRequest) (json.RawMessage, error) {
	if q.PlanID == "" {
		return nil, errors.New("sellergov: a check needs the plan id")
	}
	var e wire.Encoder
	e.ObjectStart()
	e.Key("plan_id")
	e.String(q.PlanID)
	e.Key("caller")
	e.String(c.opts.Caller)
	for _, m := range []struct{ k, v string }{{"purchase_type", q.PurchaseType}, {"tool", q.Tool}, {"phase", q.Phase},
		{"governance_context", q.GovernanceContext}, {"consultation_context", q.ConsultationContext}, {"target_agent", q.TargetAgent}} {
		if m.v != "" {
			e.Key(m.k)
			e.String(m.v)
		}
	}
	if q.Payload != nil {
		p, err := wire.ParseLenient(q.Payload)
		if err != nil || !p.IsObject() {
			return nil, errors.New("sellergov: the payload is not a JSON object")
		}
		e.Key("payload")
		e.Raw(p.Raw())
	}
	e.ObjectEnd()
	return e.Bytes(), e.Err()
}

// readDecision reads a check_governance response (bytes the client has
// checked strictly).
func readDecision(data json.RawMessage) (CheckResult, error) {
	v, err := wire.ParseLenient(data)
	if err != nil || !v.IsObject() {
		return CheckResult{}, errors.New("check_governance answered no object")
	}
	str := func(k string) string { s, _ := v.Get(k).AsString(); return s }
	d := CheckResult{Verdict: str("verdict"), CheckID: str("check_id"), Explanation: str("explanation"),
		GovernanceContext: str("governance_context"), ConsultationContext: str("consultation_context"), ExpiresAt: str("expires_at"), Raw: data}
	if d.Verdict == "" {
		d.Verdict = str("status") // AdCP 3.0
	}
	if f := v.Get("findings"); f.IsArray() {
		d.Findings = f.Raw()
	}
	v.Get("conditions").Elems(func(e wire.Lenient) bool {
		field, _ := e.Get("field").AsString()
		reason, _ := e.Get("reason").AsString()
		d.Conditions = append(d.Conditions, Condition{Field: field, RequiredValue: e.Get("required_value").Raw(), Reason: reason})
		return true
	})
	switch d.Verdict {
	case Approved, Denied, Conditions:
		return d, nil
	}
	return CheckResult{}, fmt.Errorf("check_governance verdict %q", untrusted.SanitizeTruncate(d.Verdict, 32))
}

// Denial is the GOVERNANCE_DENIED error for a denied (or unmet
// conditions) decision, the agent's explanation in its message and its
// findings, verbatim, in details, as the spec asks sellers to propagate
// them.
func (c *Checker) Denial(d CheckResult) *adcperr.Error {
	msg := "The governance agent denied this transaction"
	if d.Explanation != "" {
		msg += ": " + untrusted.SanitizeTruncate(d.Explanation, 400)
	}
	e := &adcperr.Error{Code: "GOVERNANCE_DENIED", Message: msg}
	e.Recovery, _ = c.spec.Recovery(e.Code)
	details := map[string]any{"verdict": d.Verdict}
	if d.CheckID != "" {
		details["check_id"] = d.CheckID
	}
	if d.Findings != nil {
		details["findings"] = d.Findings
	}
	e.Details = details
	return e
}

// unavailable is GOVERNANCE_UNAVAILABLE for a check that got no verdict.
// The cause is the seller's to log; the buyer learns which agent.
func (c *Checker) unavailable(a GovernanceAgent, cause error) error {
	e := &adcperr.Error{Code: "GOVERNANCE_UNAVAILABLE",
		Message: "The governance agent registered for this account could not be consulted; retry later"}
	e.Recovery, _ = c.spec.Recovery(e.Code)
	return &UnavailableError{Agent: a.URL, Err: cause, AdCP: e}
}

// UnavailableError is a check that got no verdict: AdCP is the
// GOVERNANCE_UNAVAILABLE error for the buyer (errors.As finds it), Err the
// cause for the seller's log.
type UnavailableError struct {
	Agent string
	Err   error
	AdCP  *adcperr.Error
}

func (e *UnavailableError) Error() string {
	return "governance agent " + e.Agent + ": " + e.Err.Error()
}

// Unwrap gives errors.As both the AdCP error and the cause.
func (e *UnavailableError) Unwrap() []error { return []error{e.AdCP, e.Err} }

// Govern consults agent about q until it has a verdict it can act on:
// approved returns the decision; conditions are handed to apply, which
// returns the payload adjusted to meet them (or an error: they cannot be
// met), and the adjusted action is checked again with the governance
// context, up to MaxRounds checks; denied, conditions apply cannot meet
// and conditions left after the last round are GOVERNANCE_DENIED. apply
// nil meets no condition.
func (c *Checker) Govern(ctx context.Context, agent GovernanceAgent, q CheckRequest, apply func(conds []Condition, payload json.RawMessage) (json.RawMessage, error)) (CheckResult, error) {
	for round := 1; ; round++ {
		d, err := c.Check(ctx, agent, q)
		if err != nil {
			return d, err
		}
		switch {
		case d.Verdict == Approved:
			return d, nil
		case d.Verdict == Denied, round >= c.opts.MaxRounds, apply == nil:
			return d, c.Denial(d)
		}
		payload, err := apply(d.Conditions, q.Payload)
		if err != nil {
			d.Explanation = strings.TrimSpace(d.Explanation + " (conditions not met: " + err.Error() + ")")
			return d, c.Denial(d)
		}
		q.Payload = payload
		// The adjusted action is correlated with the conditions verdict:
		// by its consultation handle (3.2), else its governance context.
		switch {
		case d.ConsultationContext != "":
			q.ConsultationContext, q.GovernanceContext = d.ConsultationContext, ""
		case d.GovernanceContext != "":
			q.GovernanceContext = d.GovernanceContext
		}
	}
}
