package buyer_test

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Nothing is sent for a descriptor of another version, nor for a request
// its encoder refuses (the error names the field).
func TestRefusedBeforeSending(t *testing.T) {
	r := newRig(t, mcpJSON, scripted(map[string][]answer{"create_thing": {{payload: `{}`}}}))
	ctx := t.Context()
	other := task.NewTool[tinyadcp.GetThingsRequest, tinyadcp.GetThingsResponse, task.None, task.None, task.None]("get_things", "9.9.9")
	if _, err := buyer.Call(ctx, r.client, other, &tinyadcp.GetThingsRequest{}); !errors.Is(err, buyer.ErrVersion) {
		t.Errorf("another version: %v", err)
	}
	_, err := buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x", Size: new(math.NaN())})
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Pointer != "/size" || !strings.Contains(err.Error(), "/size") {
		t.Errorf("NaN size: %v", err)
	}
	_, err = buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x",
		Context: tinyadcp.ContextObject{"trace": json.RawMessage(`{"a":1,"a":2}`)}})
	if !errors.As(err, &de) || de.Pointer != "/context/trace/a" || !strings.Contains(err.Error(), "/context/trace") {
		t.Errorf("duplicate key in raw context: %v", err)
	}
	if n := len(r.calls()); n != 0 {
		t.Errorf("%d refused requests reached the seller", n)
	}
}

// Invoke: the untyped core, by tool name, JSON in and checked JSON out.
func TestInvoke(t *testing.T) {
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			r := newRig(t, f, scripted(map[string][]answer{
				"get_things":      {{payload: thingsPayload}},
				"create_thing":    {{state: task.Submitted, payload: `{"status":"submitted","task_id":"t-9"}`}},
				"get_task_status": {{payload: `{"task_id":"t-9","status":"completed","result":{"thing":{"thing_id":"t-9","name":"n"}}}`}},
				"delete_thing":    {{payload: `{"deleted":"yes"}`}},
			}))
			ctx := t.Context()
			out, err := r.client.Invoke(ctx, "get_things", json.RawMessage(`{"filter":"a"}`))
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != task.Completed || !json.Valid(out.Data) || !strings.Contains(string(out.Data), `"t-1"`) || out.Attempts != 1 {
				t.Errorf("%+v", out)
			}
			out, err = r.client.Invoke(ctx, "create_thing", json.RawMessage(`{"name":"n"}`), buyer.WaitForCompletion())
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != task.Completed || out.TaskID != "t-9" || !strings.Contains(string(out.Data), `"thing_id":"t-9"`) || buyer.CheckIdempotencyKey(out.IdempotencyKey) != nil {
				t.Errorf("%+v", out)
			}
			// The spec's response type judges the payload.
			if _, err := r.client.Invoke(ctx, "delete_thing", json.RawMessage(`{"thing_id":"x"}`)); err == nil || !strings.Contains(err.Error(), "/deleted") {
				t.Errorf("wrong type: %v", err)
			}
			// Requests are checked before they leave.
			for _, bad := range []string{`{"name":"n","name":"m"}`, `[1]`, `{"thing_id":1}`} {
				if _, err := r.client.Invoke(ctx, "create_thing", json.RawMessage(bad)); err == nil {
					t.Errorf("%s: sent", bad)
				}
			}
			n := 0
			for _, c := range r.calls() {
				if c.Tool != "get_task_status" {
					n++
				}
			}
			if n != 3 {
				t.Errorf("%d calls reached the seller, want 3", n)
			}
		})
	}
}

// Versions before get_task_status poll the tasks/get tool, whose schemas
// the spec has without a tool (reached through NewBySchema), asking for
// the history: its last response is the result.
func TestWaitWithTasksGet(t *testing.T) {
	spec := withoutTool(tinyadcp.Spec(), "get_task_status")
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			r := newRig(t, f, scripted(map[string][]answer{
				"tasks/get": {
					{payload: `{"task_id":"t-1","status":"working"}`},
					{payload: `{"task_id":"t-1","status":"completed","history":[` +
						`{"timestamp":"2026-01-01T00:00:00Z","type":"request","data":{"name":"n"}},` +
						`{"timestamp":"2026-01-01T00:01:00Z","type":"response","data":{"thing":{"thing_id":"t-1","name":"n"}}}]}`},
				},
			}))
			c, err := buyer.New(spec, r.client.Transport(), buyer.WithPolling(buyer.Polling{Interval: 1, MaxInterval: 1}))
			if err != nil {
				t.Fatal(err)
			}
			res, err := buyer.Wait(t.Context(), c, tinyadcp.Tools.CreateThing, "t-1")
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != task.Completed || res.Response.Thing.ThingID != "t-1" {
				t.Errorf("%+v", res)
			}
			calls := r.calls()
			if len(calls) != 2 || !strings.Contains(string(calls[0].Args), `"include_history":true`) {
				t.Errorf("calls %+v", calls)
			}
			// A status answer its schema refuses (status is required).
			r2 := newRig(t, f, scripted(map[string][]answer{"tasks/get": {{payload: `{"task_id":"t-1"}`}}}))
			c2, _ := buyer.New(spec, r2.client.Transport(), buyer.WithPolling(buyer.Polling{Interval: 1, MaxInterval: 1}))
			if _, err := buyer.Wait(t.Context(), c2, tinyadcp.Tools.CreateThing, "t-1"); !strings.Contains(err.Error(), "TasksGetResponse") {
				t.Errorf("got %v", err)
			}
		})
	}
}

// withoutTool is spec without one tool, as versions before 3.1 lack
// get_task_status.
func withoutTool(spec *registry.Spec, name string) *registry.Spec {
	tools := slices.DeleteFunc(spec.Tools(), func(t registry.Tool) bool { return t.Name == name })
	return registry.NewSpec(registry.SpecConfig{Version: spec.Version(), Tools: tools, Codes: spec.Codes(),
		NewDetails: spec.NewDetails, NewBySchema: spec.NewBySchema})
}

// Sellers built on the JavaScript SDK answer an async AdCP task with a
// completed A2A task whose payload says submitted, and put the task id in
// the artifact's metadata.
func TestA2ACompletedTaskWithAsyncPayload(t *testing.T) {
	r := newRig(t, a2aRPC, scripted(map[string][]answer{"create_thing": {{
		payload:  `{"status":"submitted","message":"queued"}`,
		metadata: map[string]any{"adcp_task_id": "adcp-42"},
	}}}))
	res, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x"})
	var pe *buyer.SellerDataError
	// The submitted payload lacks its required task_id: refused, with the
	// status detected (not "missing thing").
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "CreateThingSubmitted") {
		t.Fatalf("got %v (%+v)", err, res)
	}
	r = newRig(t, a2aRPC, scripted(map[string][]answer{"get_things": {{
		payload:  `{"status":"submitted","message":"queued"}`,
		metadata: map[string]any{"adcp_task_id": "adcp-42"},
	}}}))
	things, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if things.Status != task.Submitted || things.TaskID != "adcp-42" || things.Message != "queued" {
		t.Errorf("%+v", things)
	}
}

// Authentication is the caller's http.Client's: its headers reach the
// seller on every request, the agent card's included.
func TestCallerHeaders(t *testing.T) {
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			hc := &http.Client{Transport: headerTransport{base: &http.Transport{}, headers: http.Header{
				"Authorization": {"Bearer secret-token"}, "X-Buyer": {"acme"}}}}
			r := newRigWith(t, f, scripted(map[string][]answer{"get_things": {{payload: thingsPayload}}}), hc)
			if _, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{}); err != nil {
				t.Fatal(err)
			}
			hs := r.headers()
			if len(hs) == 0 {
				t.Fatal("no requests")
			}
			for i, h := range hs {
				if h.Get("Authorization") != "Bearer secret-token" || h.Get("X-Buyer") != "acme" {
					t.Errorf("request %d: headers %v", i, h)
				}
			}
		})
	}
}

type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range t.headers {
		r.Header[k] = vs
	}
	return t.base.RoundTrip(r)
}

func TestToolNames(t *testing.T) {
	for _, f := range framings {
		r := newRig(t, f, scripted(nil))
		names, err := r.client.ToolNames(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(names)
		want := slices.Clone(tools)
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Errorf("%s: %v", f, names)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	r := newRig(t, mcpJSON, scripted(nil))
	if _, err := buyer.New(nil, r.client.Transport()); err == nil {
		t.Error("nil spec")
	}
	if _, err := buyer.New(tinyadcp.Spec(), nil); err == nil {
		t.Error("nil transport")
	}
}

// A spec read from a manifest alone (no generated constructors), as a
// command-line client has: Invoke still adds the idempotency key, detects
// statuses and checks the payload strictly.
func TestInvokeWithManifestSpec(t *testing.T) {
	m, err := registry.LoadManifest(os.DirFS(filepath.Join("..", "..", "internal", "buyertest", "testdata", "schemas")), "buyertest")
	if err != nil {
		t.Fatal(err)
	}
	var ts []registry.Tool
	for _, mt := range m.Tools {
		ts = append(ts, registry.Tool{Name: mt.Name, Mutating: mt.Mutating, IdempotencyRequired: mt.IdempotencyRequired,
			RequestSchema: mt.RequestSchema, ResponseSchema: mt.ResponseSchema})
	}
	spec := registry.NewSpec(registry.SpecConfig{Version: m.Version, Tools: ts, Codes: m.CodeTable()})
	r := newRig(t, mcpJSON, scripted(map[string][]answer{"create_thing": {
		{state: task.Submitted, payload: `{"status":"submitted","task_id":"t-1","extra":{"a":1,"a":2}}`},
		{payload: `{"thing":{"thing_id":"t-1","name":"n"}}`},
	}}))
	c, err := buyer.New(spec, r.client.Transport())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Invoke(t.Context(), "create_thing", json.RawMessage(`{"name":"n"}`))
	if !strings.Contains(err.Error(), "/extra/a") {
		t.Errorf("duplicate key in the payload: %v", err)
	}
	out, err := c.Invoke(t.Context(), "create_thing", json.RawMessage(`{"name":"n"}`))
	if err != nil {
		t.Fatal(err)
	}
	calls := r.calls()
	if out.Status != task.Completed || len(calls) != 2 || argMember(t, calls[0].Args, "idempotency_key") == "" ||
		argMember(t, calls[0].Args, "idempotency_key") == argMember(t, calls[1].Args, "idempotency_key") {
		t.Errorf("%+v; calls %+v", out, calls)
	}
}

// Wait polls the status tool the seller lists: a 3.0 client (no
// get_task_status in its spec) of a seller listing only get_task_status
// polls it, a 3.1 client of a seller listing only tasks/get polls that,
// and a seller listing both is polled with the version's own.
func TestWaitPollsTheListedStatusTool(t *testing.T) {
	completed := `{"task_id":"t-1","status":"completed","result":{"thing":{"thing_id":"t-1","name":"n"}},` +
		`"history":[{"timestamp":"2026-01-01T00:01:00Z","type":"response","data":{"thing":{"thing_id":"t-1","name":"n"}}}]}`
	v30 := withoutTool(tinyadcp.Spec(), "get_task_status")
	for _, tc := range []struct {
		name   string
		spec   *registry.Spec
		listed []string
		want   string
	}{
		{"3.0 client, seller lists get_task_status", v30, []string{"create_thing", "get_task_status"}, "get_task_status"},
		{"3.1 client, seller lists tasks/get", tinyadcp.Spec(), []string{"create_thing", "tasks/get"}, "tasks/get"},
		{"3.0 client, seller lists both", v30, []string{"create_thing", "get_task_status", "tasks/get"}, "tasks/get"},
		{"3.1 client, seller lists both", tinyadcp.Spec(), []string{"create_thing", "get_task_status", "tasks/get"}, "get_task_status"},
	} {
		for _, f := range framings {
			t.Run(tc.name+"/"+string(f), func(t *testing.T) {
				r := newRigConfig(t, f, scripted(map[string][]answer{tc.want: {{payload: completed}}}), rigConfig{tools: tc.listed})
				c, err := buyer.New(tc.spec, r.client.Transport(), buyer.WithPolling(buyer.Polling{Interval: 1, MaxInterval: 1}))
				if err != nil {
					t.Fatal(err)
				}
				res, err := buyer.Wait(t.Context(), c, tinyadcp.Tools.CreateThing, "t-1")
				if err != nil {
					t.Fatal(err)
				}
				calls := r.calls()
				if res.Status != task.Completed || len(calls) != 1 || calls[0].Tool != tc.want {
					t.Errorf("%+v; calls %+v", res, calls)
				}
			})
		}
	}
}

// The status member is the task's only where the tool's schemas make it
// the envelope's: a payload whose schema declares a status of its own
// (3.0's create_media_buy status, the media buy's: "completed" and
// "rejected" are values of both) is a completed response, while the
// interim status its submitted arm fixes is still read.
func TestPayloadStatusOfItsOwn(t *testing.T) {
	tools := tinyadcp.Spec().Tools()
	for i := range tools {
		if tools[i].Name == "create_thing" {
			tools[i].Envelope = registry.Envelope{Members: []string{"status", "task_id"}, Statuses: []string{"submitted"}, Payload: []string{"status"}}
		}
	}
	base := tinyadcp.Spec()
	spec := registry.NewSpec(registry.SpecConfig{Version: base.Version(), Tools: tools, Codes: base.Codes(),
		NewDetails: base.NewDetails, NewBySchema: base.NewBySchema})
	for _, tc := range []struct {
		payload string
		want    task.Status
	}{
		{`{"status":"rejected","thing":{"thing_id":"t-1","name":"n"}}`, task.Completed},
		{`{"status":"submitted","task_id":"t-2"}`, task.Submitted},
	} {
		r := newRig(t, mcpJSON, scripted(map[string][]answer{"create_thing": {{payload: tc.payload}}}))
		c, err := buyer.New(spec, r.client.Transport())
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.Invoke(t.Context(), "create_thing", json.RawMessage(`{"name":"n"}`))
		if err != nil || out.Status != tc.want {
			t.Errorf("%s: %+v %v, want %s", tc.payload, out, err, tc.want)
		}
	}
}
