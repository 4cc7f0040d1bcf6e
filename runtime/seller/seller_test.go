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

func TestTerseText(t *testing.T) {
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
