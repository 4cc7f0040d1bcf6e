package buyer_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
)

const rateLimited = `{"code":"RATE_LIMITED","message":"slow down","retry_after":1.2,"details":{"limit":10,"window_seconds":60}}`

// An AdCP error comes back as *adcperr.Error wherever the seller put it,
// classified by the spec, with retry_after rounded up and typed details.
func TestAdCPErrors(t *testing.T) {
	cases := []struct {
		name string
		f    framing
		a    answer
	}{
		{"structuredContent", mcpSSE, answer{adcpErr: rateLimited}},
		{"text fallback", mcpJSON, answer{adcpErr: rateLimited, asText: true}},
		{"mcp error.data", mcpSSE, answer{rpcErr: `{"code":-32029,"message":"Rate limited","data":{"adcp_error":` + rateLimited + `}}`}},
		{"a2a failed task", a2aRPC, answer{adcpErr: rateLimited}},
		{"a2a error.data", a2aRPC, answer{rpcErr: `{"code":-32029,"message":"Rate limited","data":{"adcp_error":` + rateLimited + `}}`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.f, scripted(map[string][]answer{"get_things": {tc.a}}), buyer.WithoutRetries())
			_, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
			var ae *adcperr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("want an *adcperr.Error, got %v", err)
			}
			if ae.Code != "RATE_LIMITED" || ae.Recovery != registry.Transient || ae.Action() != adcperr.ActionRetry || ae.RetryAfter != 2*time.Second {
				t.Errorf("code %s recovery %s action %s retry after %s", ae.Code, ae.Recovery, ae.Action(), ae.RetryAfter)
			}
			d, ok := ae.Details.(*tinyadcp.RateLimitedDetails)
			if !ok || d.Limit != 10 {
				t.Errorf("details %T %+v (%v)", ae.Details, ae.Details, ae.DetailsErr)
			}
			if n := len(r.calls()); n != 1 {
				t.Errorf("%d calls with retries off", n)
			}
		})
	}
}

// Failures without a structured error say what they were.
func TestUnstructuredFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    framing
		a    answer
		want error
	}{
		{"mcp JSON-RPC error", mcpSSE, answer{rpcErr: `{"code":-32602,"message":"bad params"}`}, extract.ErrUnstructuredFailure},
		{"a2a JSON-RPC error", a2aRPC, answer{rpcErr: `{"code":-32602,"message":"bad params"}`}, extract.ErrUnstructuredFailure},
		{"a2a failed without data", a2aRPC, answer{state: task.Failed}, extract.ErrUnstructuredFailure},
		{"a2a canceled", a2aRPC, answer{state: task.Canceled}, buyer.ErrNoResult},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.f, scripted(map[string][]answer{"get_things": {tc.a}}), buyer.WithoutRetries())
			_, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if n := strings.Count(err.Error(), "get_things"); n != 1 {
				t.Errorf("the message names the tool %d times: %v", n, err)
			}
			var ae *adcperr.Error
			if errors.As(err, &ae) {
				t.Errorf("an AdCP error out of nothing: %v", ae)
			}
		})
	}
}

// A failed task whose payload is the response's error branch decodes as
// the response, with the failed status.
func TestFailedWithResponse(t *testing.T) {
	r := newRig(t, a2aRPC, scripted(map[string][]answer{"create_thing": {{state: task.Failed, payload: `{"errors":[{"code":"BUDGET_TOO_LOW"}]}`}}}))
	res, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != task.Failed || res.Response == nil || len(res.Response.Errors) != 1 {
		t.Errorf("%+v", res)
	}
}
