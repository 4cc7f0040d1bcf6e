package seller_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// x is a buyer that classifies the codes these tests send.
var x = extract.New(registry.NewSpec(registry.SpecConfig{Codes: registry.ErrorCodes{
	{Code: "RATE_LIMITED", Recovery: registry.Transient}, {Code: "SERVICE_UNAVAILABLE", Recovery: registry.Transient},
	{Code: "AUTH_MISSING", Recovery: registry.Correctable}, {Code: "AUTH_REQUIRED", Recovery: registry.Correctable},
	{Code: "BUDGET_TOO_LOW", Recovery: registry.Correctable},
}}))

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestToolSuccessRoundTrip(t *testing.T) {
	res, err := seller.NewToolSuccess("Found 1 product.", map[string]any{"products": []any{map[string]any{"product_id": "p1"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(mustJSON(t, res))
	want := `{"content":[{"type":"text","text":"Found 1 product."}],"structuredContent":{"products":[{"product_id":"p1"}]}}`
	if got != want {
		t.Errorf("wire = %s\nwant   %s", got, want)
	}
	r := x.MCP([]byte(got))
	if string(r.Data) != `{"products":[{"product_id":"p1"}]}` || r.Action != "" {
		t.Errorf("round trip: %s %q", r.Data, r.Action)
	}
	for _, bad := range []any{nil, []int{1}, json.RawMessage(`"x"`), json.RawMessage(`{`), map[string]any{"adcp_error": 1}} {
		if _, err := seller.NewToolSuccess("x", bad); err == nil {
			t.Errorf("NewToolSuccess(%v) accepted", bad)
		}
	}
}

func TestToolErrorRoundTrip(t *testing.T) {
	e := &adcperr.Error{
		Code: "BUDGET_TOO_LOW", Message: "Budget is below the seller's minimum", Recovery: registry.Correctable,
		Field: "budget.total", Suggestion: "Increase budget", Details: map[string]any{"minimum_budget": 500, "currency": "USD"},
	}
	res, err := seller.NewToolError(e, "Budget too low.")
	if err != nil {
		t.Fatal(err)
	}
	wire := mustJSON(t, res)
	wantErr := `{"code":"BUDGET_TOO_LOW","message":"Budget is below the seller's minimum","recovery":"correctable","field":"budget.total","suggestion":"Increase budget","details":{"currency":"USD","minimum_budget":500}}`
	want := `{"content":[{"type":"text","text":` + string(mustJSON(t, `{"adcp_error":`+wantErr+`}`)) +
		`},{"type":"text","text":"Budget too low."}],"structuredContent":{"adcp_error":` + wantErr + `},"isError":true}`
	if string(wire) != want {
		t.Fatalf("wire = %s\nwant   %s", wire, want)
	}
	// Both buyer paths find the same error.
	r := x.MCP(wire)
	if r.Error == nil || string(r.Error.Raw) != wantErr || r.Action != adcperr.ActionSurface {
		t.Fatalf("structured path: %v", r.Error)
	}
	var textOnly struct {
		Content []json.RawMessage `json:"content"`
		IsError bool              `json:"isError"`
	}
	_ = json.Unmarshal(wire, &textOnly)
	r = x.MCP(mustJSON(t, textOnly))
	if r.Error == nil || string(r.Error.Raw) != wantErr || r.Error.Path != "content[0].text.adcp_error" {
		t.Fatalf("text path: %+v", r.Error)
	}
	// An extracted error passes through an intermediary unchanged.
	again, err := seller.NewToolError(r.Error, "")
	if err != nil || !strings.Contains(string(mustJSON(t, again)), `"structuredContent":{"adcp_error":`+wantErr+`}`) {
		t.Errorf("pass-through: %s %v", mustJSON(t, again), err)
	}
}

func TestJSONRPCErrors(t *testing.T) {
	for code, want := range map[string]int64{"RATE_LIMITED": -32029, "AUTH_MISSING": -32028, "AUTH_REQUIRED": -32028, "SERVICE_UNAVAILABLE": -32027} {
		resp, err := seller.NewJSONRPCErrorResponse(json.RawMessage(`"req-1"`), &adcperr.Error{Code: code, Message: "m", Recovery: x.Recovery(code)})
		if err != nil || resp.Error.Code != want {
			t.Fatalf("%s: %v %v", code, resp, err)
		}
		r := x.MCP(mustJSON(t, resp))
		if r.Error == nil || r.Error.Code != code {
			t.Errorf("%s: round trip %v", code, r.Error)
		}
	}
	for n, want := range map[int64]string{-32029: "RATE_LIMITED", -32028: "AUTH_MISSING", -32027: "SERVICE_UNAVAILABLE", -32600: ""} {
		if got, ok := seller.JSONRPCCodeName(n); got != want || ok != (want != "") {
			t.Errorf("JSONRPCCodeName(%d) = %q", n, got)
		}
	}
	if _, err := seller.NewJSONRPCError(&adcperr.Error{Code: "BUDGET_TOO_LOW", Message: "m"}); err == nil {
		t.Error("a tool-level code got a JSON-RPC code")
	}
	resp, _ := seller.NewJSONRPCErrorResponse(nil, &adcperr.Error{Code: "RATE_LIMITED", Message: "m", Recovery: registry.Transient, RetryAfter: 5 * time.Second})
	if got := string(mustJSON(t, resp)); got != `{"jsonrpc":"2.0","id":null,"error":{"code":-32029,"message":"Rate limit exceeded","data":{"adcp_error":{"code":"RATE_LIMITED","message":"m","recovery":"transient","retry_after":5}}}}` {
		t.Errorf("wire = %s", got)
	}
	if msg := resp.Error.Error(); msg != "JSON-RPC error -32029: Rate limit exceeded" {
		t.Errorf("Error() = %q", msg)
	}
}

func TestA2ATasks(t *testing.T) {
	at := time.Date(2025, 1, 22, 10, 30, 0, 0, time.UTC)
	task, err := seller.NewA2AFailedTask("task_456", "ctx", &adcperr.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", Recovery: registry.Transient, RetryAfter: 5 * time.Second}, "", at)
	if err != nil {
		t.Fatal(err)
	}
	wire := string(mustJSON(t, task))
	want := `{"id":"task_456","contextId":"ctx","kind":"task","status":{"state":"failed","timestamp":"2025-01-22T10:30:00Z"},"artifacts":[{"artifactId":"error-result","parts":[{"kind":"text","text":"RATE_LIMITED: retry in 5s."},{"kind":"data","data":{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","recovery":"transient","retry_after":5}},"metadata":{"mimeType":"application/vnd.adcp.error+json"}}]}]}`
	if wire != want {
		t.Fatalf("wire = %s\nwant   %s", wire, want)
	}
	r := x.A2A([]byte(wire))
	if r.Error == nil || r.Action != adcperr.ActionRetry || r.Error.RetryAfter != 5*time.Second || r.State != "failed" {
		t.Errorf("round trip: %+v", r)
	}
	done, err := seller.NewA2ACompletedTask("t", "", json.RawMessage(`{"media_buy_id":"mb_1"}`), "Created.", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	r = x.A2A(mustJSON(t, done))
	if string(r.Data) != `{"media_buy_id":"mb_1"}` || r.Action != "" {
		t.Errorf("completed round trip: %s", r.Data)
	}
	if _, err := seller.NewA2ACompletedTask("t", "", json.RawMessage(`{"response":{}}`), "", at); err == nil || !strings.Contains(err.Error(), "wrapper") {
		t.Errorf("wrapper accepted: %v", err)
	}
	for _, c := range []struct {
		e    *adcperr.Error
		want string
	}{
		{&adcperr.Error{Code: "SERVICE_UNAVAILABLE", Recovery: registry.Transient}, "SERVICE_UNAVAILABLE: temporary failure, retry later."},
		{&adcperr.Error{Code: "BUDGET_TOO_LOW", Recovery: registry.Correctable}, "BUDGET_TOO_LOW: the request needs a change."},
		{&adcperr.Error{Code: "X_A1_B2", Recovery: registry.Terminal}, "X_A1_B2: needs human attention."},
		{&adcperr.Error{Code: "X_A1_B2"}, "X_A1_B2."},
	} {
		if got := seller.TerseText(c.e); got != c.want {
			t.Errorf("TerseText = %q, want %q", got, c.want)
		}
	}
}

func TestTranslateUpstream(t *testing.T) {
	now := func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		name  string
		err   error
		code  string
		msg   string
		retry time.Duration
	}{
		{"429 with seconds", &seller.UpstreamHTTPError{StatusCode: 429, RetryAfter: "30"}, "RATE_LIMITED", "Request rate exceeded", 30 * time.Second},
		{"429 with a date", &seller.UpstreamHTTPError{StatusCode: 429, RetryAfter: "Wed, 01 Jan 2025 00:02:00 GMT"}, "RATE_LIMITED", "Request rate exceeded", 2 * time.Minute},
		{"429 with a huge value", &seller.UpstreamHTTPError{StatusCode: 429, RetryAfter: "999999"}, "RATE_LIMITED", "Request rate exceeded", time.Hour},
		{"429 without a header", &seller.UpstreamHTTPError{StatusCode: 429}, "RATE_LIMITED", "Request rate exceeded", 10 * time.Second},
		{"429 with junk", &seller.UpstreamHTTPError{StatusCode: 429, RetryAfter: "soon"}, "RATE_LIMITED", "Request rate exceeded", 10 * time.Second},
		{"503", &seller.UpstreamHTTPError{StatusCode: 503, Err: errors.New("db-7.internal: connection refused")}, "SERVICE_UNAVAILABLE", "Service temporarily unavailable", 0},
		{"404", &seller.UpstreamHTTPError{StatusCode: 404}, "SERVICE_UNAVAILABLE", "An internal error occurred", 0},
		{"network", errors.New("dial tcp 10.0.0.7:5432: i/o timeout"), "SERVICE_UNAVAILABLE", "An internal error occurred", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := seller.TranslateUpstream(c.err, now)
			if e.Code != c.code || e.Message != c.msg || e.Recovery != registry.Transient || e.RetryAfter != c.retry {
				t.Errorf("got %+v", e)
			}
			if strings.Contains(e.Error(), "internal:") || strings.Contains(e.Error(), "10.0.0.7") {
				t.Errorf("upstream detail leaked: %s", e)
			}
		})
	}
	own := &adcperr.Error{Code: "CREATIVE_REJECTED", Message: "m", Recovery: registry.Correctable, Details: map[string]any{"policy_id": "p"}}
	if got := seller.TranslateUpstream(errors.Join(errors.New("wrapped"), own), nil); got != own {
		t.Errorf("AdCP upstream error not passed through: %v", got)
	}
	if seller.TranslateUpstream(nil, nil) != nil {
		t.Error("nil error translated")
	}
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"7"}}}
	if e := seller.TranslateUpstream(seller.NewUpstreamHTTPError(resp), nil); e.RetryAfter != 7*time.Second {
		t.Errorf("from response: %+v", e)
	}
}

func TestMCPTaskStatus(t *testing.T) {
	for s, want := range map[task.Status]string{
		task.Working: "working", task.Submitted: "working", task.InputRequired: "input_required",
		task.Completed: "completed", task.Failed: "failed", task.Rejected: "failed",
		task.Canceled: "cancelled", task.AuthRequired: "input_required",
	} {
		if got, ok := seller.MCPTaskStatus(s); !ok || got != want {
			t.Errorf("MCPTaskStatus(%s) = %q, %v; want %q", s, got, ok, want)
		}
	}
	if _, ok := seller.MCPTaskStatus(task.Status("unknown")); ok {
		t.Error("unknown status mapped")
	}
	for mcpStatus, want := range map[string]task.Status{
		"working": task.Working, "input_required": task.InputRequired, "completed": task.Completed,
		"failed": task.Failed, "cancelled": task.Canceled,
	} {
		if got, ok := seller.TaskStatusFromMCP(mcpStatus); !ok || got != want {
			t.Errorf("TaskStatusFromMCP(%s) = %q", mcpStatus, got)
		}
	}
	if _, ok := seller.TaskStatusFromMCP("canceled"); ok {
		t.Error("American spelling accepted as an MCP status")
	}
}
