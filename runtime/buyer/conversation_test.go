package buyer_test

import (
	"testing"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// MCP: the conversation resends the seller's context_id in the arguments,
// where the request schema admits it, and keeps the newest one.
func TestConversationMCP(t *testing.T) {
	r := newRig(t, mcpJSON, scripted(map[string][]answer{
		"get_things": {
			{payload: `{"things":[],"context_id":"ctx-1"}`},
			{payload: `{"things":[],"context_id":"ctx-2"}`},
			{payload: `{"things":[]}`},
		},
		"lock_thing": {{payload: `{"locked":true}`}},
	}))
	ctx := t.Context()
	var conv buyer.Conversation
	for i := range 3 {
		res, err := buyer.Call(ctx, r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{}, buyer.InConversation(&conv))
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"ctx-1", "ctx-2", ""}[i]; res.ContextID != want {
			t.Errorf("call %d: result context %q, want %q", i, res.ContextID, want)
		}
	}
	if conv.ContextID() != "ctx-2" {
		t.Errorf("conversation context %q", conv.ContextID())
	}
	// lock_thing's request schema is closed (additionalProperties: false):
	// no context_id goes in.
	if _, err := buyer.Call(ctx, r.client, tinyadcp.Tools.LockThing, &tinyadcp.LockThingRequest{ThingID: "t"}, buyer.InConversation(&conv)); err != nil {
		t.Fatal(err)
	}
	// Outside the conversation, nothing is resent.
	if _, err := buyer.Call(ctx, r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{}); err != nil {
		t.Fatal(err)
	}
	calls := r.calls()
	want := []string{"", "ctx-1", "ctx-2", "", ""}
	if len(calls) != len(want) {
		t.Fatalf("%d calls", len(calls))
	}
	for i, c := range calls {
		if got := argMember(t, c.Args, "context_id"); got != want[i] {
			t.Errorf("call %d (%s): context_id %q, want %q (%s)", i, c.Tool, got, want[i], c.Args)
		}
	}
}

// A2A: the conversation is the message's contextId (a2a-go's server
// assigns it to the first task); after input-required, the next call
// answers that task (the message's taskId).
func TestConversationA2A(t *testing.T) {
	r := newRig(t, a2aRPC, scripted(map[string][]answer{
		"create_thing": {
			{state: task.InputRequired, payload: `{"status":"input-required","task_id":"adcp-1","reason":"which colour?"}`},
			{payload: `{"thing":{"thing_id":"t-1","name":"red"}}`},
		},
		"get_things": {{payload: thingsPayload}},
	}))
	ctx := t.Context()
	var conv buyer.Conversation
	first, err := buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x"}, buyer.InConversation(&conv))
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != task.InputRequired || first.ContextID == "" || first.TaskID != "adcp-1" || *first.InputRequired.Reason != "which colour?" {
		t.Fatalf("%+v", first)
	}
	second, err := buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "red"}, buyer.InConversation(&conv))
	if err != nil {
		t.Fatal(err)
	}
	if second.Status != task.Completed || second.ContextID != first.ContextID {
		t.Errorf("%+v", second)
	}
	if _, err := buyer.Call(ctx, r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{}, buyer.InConversation(&conv)); err != nil {
		t.Fatal(err)
	}
	calls := r.calls()
	if len(calls) != 3 {
		t.Fatalf("%d calls", len(calls))
	}
	if calls[0].ContextID != "" || calls[1].ContextID != first.ContextID || calls[2].ContextID != first.ContextID {
		t.Errorf("contextIds %q %q %q, want \"\" then %q", calls[0].ContextID, calls[1].ContextID, calls[2].ContextID, first.ContextID)
	}
	if calls[1].TaskID == "" || calls[2].TaskID != "" {
		t.Errorf("taskIds %q then %q: the answer to input-required must name the task, the next call not", calls[1].TaskID, calls[2].TaskID)
	}
	if argMember(t, calls[1].Args, "context_id") != "" {
		t.Errorf("A2A carried context_id in the input: %s", calls[1].Args)
	}
}
