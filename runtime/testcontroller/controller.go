package testcontroller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Hook runs one scenario for a request: it returns what it achieved, or an
// *ScenarioError saying why it could not (any other error is logged and answered
// INTERNAL_ERROR; an *adcperr.Error is sent as the AdCP error it is).
type Hook func(ctx context.Context, r *ScenarioRequest) (Success, error)

// Options configure a Controller.
type Options struct {
	// Sandbox reports whether a call may act: it runs for a sandbox
	// principal and, where it names an account, a sandbox account (see
	// AccountSandbox). Every other call is answered FORBIDDEN, list_scenarios
	// included. Required.
	Sandbox func(ctx context.Context, c *seller.Call) bool
}

// Controller serves comply_test_controller on a seller.Server, dispatching
// each scenario to the hook the seller registered for it. Register hooks
// before serving or after; a Controller is safe for concurrent use.
type Controller struct {
	srv     *seller.Server
	sandbox func(ctx context.Context, c *seller.Call) bool
	version version

	mu    sync.RWMutex
	hooks map[string]Hook
}

// New registers comply_test_controller on srv and the compliance_testing
// block of its automatic get_adcp_capabilities answer. It fails when the
// server's spec has no comply_test_controller, when Options.Sandbox is
// nil, or when the version's schemas cannot be read.
func New(srv *seller.Server, opts Options) (*Controller, error) {
	if opts.Sandbox == nil {
		return nil, errors.New("testcontroller: Options.Sandbox is required: the controller must never act outside a sandbox")
	}
	t, ok := srv.Spec().Tool(ToolName)
	if !ok {
		return nil, fmt.Errorf("testcontroller: spec %s has no %s", srv.Spec().Version(), ToolName)
	}
	capsSchema := ""
	if ct, ok := srv.Spec().Tool("get_adcp_capabilities"); ok {
		capsSchema = ct.ResponseSchema
	}
	v, err := readVersion(srv.Schemas(), t.RequestSchema, t.ResponseSchema, capsSchema)
	if err != nil {
		return nil, err
	}
	c := &Controller{srv: srv, sandbox: opts.Sandbox, version: v, hooks: map[string]Hook{}}
	summary := t.Summary
	if summary == "" {
		summary = "Triggers seller-side state transitions for compliance testing. Sandbox only."
	}
	srv.HandleRaw(seller.RawTool{
		Name: ToolName, Summary: summary,
		RequestSchema: t.RequestSchema, ResponseSchema: t.ResponseSchema,
		OwnsSchemaIssues: true,
		Handler:          c.serve,
	})
	srv.SetCapability("compliance_testing", c.capability)
	return c, nil
}

// Handle registers h for scenario, replacing any hook it had. It panics on
// list_scenarios (the controller answers it), a nil hook, and a scenario
// the version's request schema does not admit (AdCP 3.0 lists them all):
// these are programming errors, found at start-up.
func (c *Controller) Handle(scenario string, h Hook) {
	switch {
	case h == nil:
		panic("testcontroller: nil hook for " + scenario)
	case scenario == ListScenarios:
		panic("testcontroller: the controller answers list_scenarios itself")
	case scenario == "" || !admits(c.version.scenarios, scenario):
		panic(fmt.Sprintf("testcontroller: spec %s defines no scenario %q", c.srv.Spec().Version(), scenario))
	}
	c.mu.Lock()
	c.hooks[scenario] = h
	c.mu.Unlock()
}

// Admits reports whether the version's request schema admits scenario,
// for sellers registering hooks across versions.
func (c *Controller) Admits(scenario string) bool {
	return scenario != "" && scenario != ListScenarios && admits(c.version.scenarios, scenario)
}

// Scenarios lists the scenarios with a hook, sorted.
func (c *Controller) Scenarios() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]string, 0, len(c.hooks))
	for s := range c.hooks {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func (c *Controller) hook(scenario string) Hook {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hooks[scenario]
}

// serve answers one call of the tool.
func (c *Controller) serve(ctx context.Context, call *seller.Call) *seller.Answer {
	if !c.sandbox(ctx, call) {
		return c.answer(call, &ScenarioError{Code: ForbiddenCode, Detail: "comply_test_controller acts on sandbox accounts only"})
	}
	scenario, _ := call.StringMember("scenario")
	if scenario == ListScenarios {
		if is := otherIssues(call.SchemaIssues(), "/scenario"); len(is) > 0 {
			return c.answer(call, paramsError(is))
		}
		return c.answer(call, c.list())
	}
	h := c.hook(scenario)
	if h == nil {
		if scenario == "" {
			return c.answer(call, InvalidParams("scenario must name a scenario"))
		}
		return c.answer(call, &ScenarioError{Code: UnknownScenarioCode, Detail: "Scenario not supported: " + untrusted.SanitizeTruncate(scenario, 64)})
	}
	if is := call.SchemaIssues(); len(is) > 0 {
		return c.answer(call, paramsError(is))
	}
	r := &ScenarioRequest{Scenario: scenario, Params: readParams(wire.Lenient(call.Member("params"))), Call: call}
	out, err := h(ctx, r)
	var ce *ScenarioError
	var ae *adcperr.Error
	switch {
	case errors.As(err, &ce):
		return c.answer(call, ce)
	case errors.As(err, &ae):
		return seller.ErrorAnswer(ae)
	case err != nil:
		c.srv.Logger().Error("testcontroller: hook failed", "scenario", scenario, "err", err.Error())
		return c.answer(call, &ScenarioError{Code: InternalErrorCode, Detail: "The scenario could not run"})
	case out == nil:
		c.srv.Logger().Error("testcontroller: hook returned no outcome", "scenario", scenario)
		return c.answer(call, &ScenarioError{Code: InternalErrorCode, Detail: "The scenario could not run"})
	}
	return c.answer(call, out)
}

// answer encodes o (a Success, a list or a *ScenarioError) as the response.
func (c *Controller) answer(call *seller.Call, o interface{ encode(*wire.Encoder) error }) *seller.Answer {
	var e wire.Encoder
	e.ObjectStart()
	err := o.encode(&e)
	e.ObjectEnd()
	if err == nil {
		err = e.Err()
	}
	if err != nil {
		c.srv.Logger().Error("testcontroller: response not encoded", "err", err.Error())
		return c.answer(call, &ScenarioError{Code: InternalErrorCode, Detail: "The scenario could not run"})
	}
	// A controller call completes at once, whether or not its scenario
	// ran; the server writes the protocol envelope (the task's status)
	// beside the outcome.
	return &seller.Answer{Status: task.Completed, Body: e.Bytes()}
}

// scenarioList is the ListScenariosSuccess answer.
type scenarioList []string

func (l scenarioList) encode(e *wire.Encoder) error {
	e.Key("success")
	e.Bool(true)
	e.Key("scenarios")
	e.ArrayStart()
	for _, s := range l {
		e.String(s)
	}
	e.ArrayEnd()
	return nil
}

// list is the hooked scenarios the version's ListScenariosSuccess admits.
func (c *Controller) list() scenarioList {
	out := scenarioList{}
	for _, s := range c.Scenarios() {
		if admits(c.version.listable, s) {
			out = append(out, s)
		}
	}
	return out
}

// capability is the compliance_testing block: the hooked scenarios the
// version's capability schema admits, nil (no block) when none does.
func (c *Controller) capability() json.RawMessage {
	var names []string
	for _, s := range c.Scenarios() {
		if admits(c.version.capable, s) {
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		return nil
	}
	var e wire.Encoder
	e.ObjectStart()
	e.Key("scenarios")
	e.ArrayStart()
	for _, s := range names {
		e.String(s)
	}
	e.ArrayEnd()
	e.ObjectEnd()
	return e.Bytes()
}

// otherIssues drops the issues at pointer.
func otherIssues(issues []validate.Issue, pointer string) []validate.Issue {
	var out []validate.Issue
	for _, is := range issues {
		if is.Pointer != pointer {
			out = append(out, is)
		}
	}
	return out
}

// paramsError is INVALID_PARAMS naming the first schema issue.
func paramsError(issues []validate.Issue) *ScenarioError {
	first := issues[0]
	where := first.Pointer
	if where == "" {
		where = "(root)"
	}
	detail := where + ": " + first.Message
	if len(issues) > 1 {
		detail += fmt.Sprintf(" (and %d more)", len(issues)-1)
	}
	return InvalidParams(untrusted.SanitizeTruncate(detail, 512))
}
