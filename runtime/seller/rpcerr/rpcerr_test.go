package rpcerr_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller/rpcerr"
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

func TestReservedCodes(t *testing.T) {
	for code, want := range map[string]int64{"RATE_LIMITED": -32029, "AUTH_MISSING": -32028, "AUTH_REQUIRED": -32028, "SERVICE_UNAVAILABLE": -32027} {
		resp, err := rpcerr.NewResponse(json.RawMessage(`"req-1"`), &adcperr.Error{Code: code, Message: "m", Recovery: x.Recovery(code)})
		if err != nil || resp.Error.Code != want {
			t.Fatalf("%s: %v %v", code, resp, err)
		}
		r := x.MCP(mustJSON(t, resp))
		if r.Error == nil || r.Error.Code != code {
			t.Errorf("%s: round trip %v", code, r.Error)
		}
	}
	for n, want := range map[int64]string{-32029: "RATE_LIMITED", -32028: "AUTH_MISSING", -32027: "SERVICE_UNAVAILABLE", -32600: ""} {
		if got, ok := rpcerr.CodeName(n); got != want || ok != (want != "") {
			t.Errorf("CodeName(%d) = %q", n, got)
		}
	}
	if _, err := rpcerr.New(&adcperr.Error{Code: "BUDGET_TOO_LOW", Message: "m"}); err == nil {
		t.Error("a tool-level code got a JSON-RPC code")
	}
	resp, _ := rpcerr.NewResponse(nil, &adcperr.Error{Code: "RATE_LIMITED", Message: "m", Recovery: registry.Transient, RetryAfter: 5 * time.Second})
	if got := string(mustJSON(t, resp)); got != `{"jsonrpc":"2.0","id":null,"error":{"code":-32029,"message":"Rate limit exceeded","data":{"adcp_error":{"code":"RATE_LIMITED","message":"m","recovery":"transient","retry_after":5}}}}` {
		t.Errorf("wire = %s", got)
	}
	if msg := resp.Error.Error(); msg != "JSON-RPC error -32029: Rate limit exceeded" {
		t.Errorf("Error() = %q", msg)
	}
}
