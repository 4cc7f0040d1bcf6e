package buyer_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/task"
)

const thingsPayload = `{"things":[{"thing_id":"t-1","name":"first","size":3},{"thing_id":"t-2","name":"second"}],"context":{"trace":"abc"}}`

func TestCallSuccess(t *testing.T) {
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			r := newRig(t, f, scripted(map[string][]answer{"get_things": {{payload: thingsPayload}}}))
			res, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{Filter: new("big")})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != task.Completed || res.Response == nil {
				t.Fatalf("status %q, response %v", res.Status, res.Response)
			}
			if got := res.Response.Things; len(got) != 2 || got[0].ThingID != "t-1" || *got[0].Size != 3 || got[1].Name != "second" {
				t.Errorf("things: %+v", got)
			}
			calls := r.calls()
			if len(calls) != 1 || calls[0].Tool != "get_things" || argMember(t, calls[0].Args, "filter") != "big" {
				t.Errorf("seller received %+v", calls)
			}
		})
	}
}

// The MCP text fallback: a seller that sends the payload only as
// content[0].text.
func TestCallTextFallback(t *testing.T) {
	r := newRig(t, mcpJSON, scripted(map[string][]answer{"get_things": {{payload: thingsPayload, asText: true}}}))
	res, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Response.Things) != 2 {
		t.Errorf("things: %+v", res.Response.Things)
	}
}

// An interim answer is a status with a task id, decoded into the tool's
// interim type, never a response missing its required fields; a tool
// whose spec has no interim type reports the status with no payload.
func TestCallInterimStatuses(t *testing.T) {
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			r := newRig(t, f, scripted(map[string][]answer{
				"create_thing": {
					{state: task.Submitted, payload: `{"status":"submitted","task_id":"task-1","message":"queued for approval"}`},
					{state: task.Working, payload: `{"status":"working","task_id":"task-1","percentage":40}`},
					{state: task.InputRequired, payload: `{"status":"input-required","task_id":"task-1","reason":"which colour?"}`},
				},
				"get_things": {{state: task.Submitted, payload: `{"status":"submitted","task_id":"task-2"}`}},
			}), buyer.WithoutRetries())
			ctx := t.Context()
			req := &tinyadcp.CreateThingRequest{Name: "new"}

			res, err := buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != task.Submitted || res.TaskID != "task-1" || res.Submitted == nil || res.Response != nil {
				t.Fatalf("submitted: %+v", res)
			}
			if *res.Submitted.Message != "queued for approval" || res.Message != "queued for approval" {
				t.Errorf("submitted message %q / %q", *res.Submitted.Message, res.Message)
			}

			res, err = buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != task.Working || res.Working == nil || *res.Working.Percentage != 40 {
				t.Fatalf("working: %+v", res)
			}

			res, err = buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != task.InputRequired || res.InputRequired == nil || *res.InputRequired.Reason != "which colour?" || res.TaskID != "task-1" {
				t.Fatalf("input-required: %+v", res)
			}

			// get_things has no interim types (task.None): the status and
			// the task id, and nothing to decode.
			things, err := buyer.Call(ctx, r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
			if err != nil {
				t.Fatalf("a submitted answer failed the call: %v", err)
			}
			if things.Status != task.Submitted || things.TaskID != "task-2" || things.Submitted != nil || things.Response != nil {
				t.Errorf("get_things submitted: %+v", things)
			}
		})
	}
}

// Each interim state, then completion through the status tool.
func TestWaitForCompletion(t *testing.T) {
	done := `{"task_id":"task-7","status":"completed","result":{"thing":{"thing_id":"t-7","name":"made"}}}`
	for _, first := range []answer{
		{state: task.Submitted, payload: `{"status":"submitted","task_id":"task-7"}`},
		{state: task.Working, payload: `{"status":"working","task_id":"task-7","percentage":10}`},
	} {
		for _, f := range framings {
			t.Run(string(first.state)+"/"+string(f), func(t *testing.T) {
				r := newRig(t, f, scripted(map[string][]answer{
					"create_thing": {first},
					"get_task_status": {
						{payload: `{"task_id":"task-7","status":"submitted"}`},
						{payload: `{"task_id":"task-7","status":"working"}`},
						{payload: done},
					},
				}))
				res, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "made"}, buyer.WaitForCompletion())
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != task.Completed || res.Response == nil || res.Response.Thing.ThingID != "t-7" || res.TaskID != "task-7" {
					t.Fatalf("%+v", res)
				}
				var polls []call
				for _, c := range r.calls() {
					if c.Tool == "get_task_status" {
						polls = append(polls, c)
					}
				}
				if len(polls) != 3 {
					t.Fatalf("%d polls, want 3", len(polls))
				}
				if argMember(t, polls[0].Args, "task_id") != "task-7" || !strings.Contains(string(polls[0].Args), `"include_result":true`) {
					t.Errorf("poll request %s", polls[0].Args)
				}
			})
		}
	}
}

// Waiting ends at input-required: a typed status the caller acts on.
func TestWaitStopsAtInputRequired(t *testing.T) {
	r := newRig(t, mcpSSE, scripted(map[string][]answer{
		"get_task_status": {
			{payload: `{"task_id":"task-3","status":"working"}`},
			{payload: `{"task_id":"task-3","status":"input-required","message":"approve the budget"}`},
		},
	}))
	res, err := buyer.Wait(t.Context(), r.client, tinyadcp.Tools.CreateThing, "task-3")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != task.InputRequired || res.TaskID != "task-3" || res.Message != "approve the budget" || res.Response != nil {
		t.Errorf("%+v", res)
	}
}

// A task that failed while polled comes back as the seller's AdCP error;
// one that ended without anything as a TaskError.
func TestWaitFailures(t *testing.T) {
	r := newRig(t, mcpSSE, scripted(map[string][]answer{
		"get_task_status": {{payload: `{"task_id":"task-4","status":"failed","error":{"code":"ACCOUNT_SUSPENDED","message":"call us"}}`}},
	}))
	_, err := buyer.Wait(t.Context(), r.client, tinyadcp.Tools.CreateThing, "task-4")
	var ae *adcpError
	if !errors.As(err, &ae) || ae.Code != "ACCOUNT_SUSPENDED" || ae.Recovery != "terminal" {
		t.Fatalf("got %v", err)
	}

	r = newRig(t, mcpSSE, scripted(map[string][]answer{
		"get_task_status": {{payload: `{"task_id":"task-5","status":"canceled"}`}},
	}))
	_, err = buyer.Wait(t.Context(), r.client, tinyadcp.Tools.CreateThing, "task-5")
	var te *buyer.TaskError
	if !errors.As(err, &te) || te.Status != task.Canceled || !errors.Is(err, buyer.ErrNoResult) {
		t.Fatalf("got %v", err)
	}
}
