package extract_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

func TestDecodeRejectsWhatExtractionKeeps(t *testing.T) {
	x := testExtractor()
	env := []byte(`{"content":[{"type":"text","text":"OK"}],"structuredContent":{"status":"completed","products":[],"__proto__":{"isAdmin":true}}}`)
	r := x.MCP(env)
	if string(r.Data) != `{"status":"completed","products":[],"__proto__":{"isAdmin":true}}` {
		t.Fatalf("extraction changed the data: %s", r.Data)
	}
	var v adcp.MCPResponse
	err := x.DecodeMCP(env, &v)
	var we *wire.DecodeError
	if !errors.As(err, &we) || we.Kind != wire.KindForbiddenKey {
		t.Fatalf("DecodeMCP = %v, want a forbidden-key error", err)
	}
	err = x.DecodeMCP([]byte(`{"structuredContent":{"status":"a","status":"b"}}`), &v)
	if !errors.As(err, &we) || we.Kind != wire.KindDuplicate {
		t.Fatalf("duplicates: %v", err)
	}
}

func TestDecodeMethods(t *testing.T) {
	x := testExtractor()
	var v adcp.MCPResponse
	status := func() adcp.TaskStatus {
		if v.Status == nil {
			return ""
		}
		return *v.Status
	}
	if err := x.DecodeMCP([]byte(`{"structuredContent":{"status":"completed","products":[{"id":1},{"id":2}]}}`), &v); err != nil || status() != "completed" || string(v.AdditionalProperties["products"]) != `[{"id":1},{"id":2}]` {
		t.Fatalf("DecodeMCP = %+v, %v", v, err)
	}
	v = adcp.MCPResponse{}
	if err := x.DecodeMCP([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"status\":\"working\"}"}]}}`), &v); err != nil || status() != "working" {
		t.Fatalf("DecodeMCP(JSON-RPC) = %+v, %v", v, err)
	}
	v = adcp.MCPResponse{}
	if err := x.DecodeA2A([]byte(`{"task":{"status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"parts":[{"data":{"status":"completed"}}]}]}}`), &v); err != nil || status() != "completed" {
		t.Fatalf("DecodeA2A = %+v, %v", v, err)
	}
	v = adcp.MCPResponse{}
	if err := x.DecodeA2A([]byte(`{"jsonrpc":"2.0","id":1,"result":{"status":{"state":"completed"},"artifacts":[{"parts":[{"data":{"status":"completed"}}]}]}}`), &v); err != nil || status() != "completed" {
		t.Fatalf("DecodeA2A(JSON-RPC) = %+v, %v", v, err)
	}
	v = adcp.MCPResponse{}
	if err := x.DecodeWebhook([]byte(`{"task_id":"t","status":"completed","result":{"status":"completed"}}`), &v); err != nil || status() != "completed" {
		t.Fatalf("DecodeWebhook = %+v, %v", v, err)
	}
	// Failures come back as the AdCP error or a sentinel.
	err := x.DecodeMCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","retry_after":3}}}`), &v)
	var ae *adcperr.Error
	if !errors.As(err, &ae) || ae.Code != "RATE_LIMITED" || ae.RetryAfter.Seconds() != 3 {
		t.Fatalf("error: %v", err)
	}
	if err := x.DecodeA2A([]byte(`{"status":{"state":"working"}}`), &v); !errors.Is(err, extract.ErrNoData) {
		t.Errorf("no data: %v", err)
	}
	if err := x.DecodeA2A([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32029,"message":"m","data":{"adcp_error":{"code":"RATE_LIMITED"}}}}`), &v); !errors.As(err, &ae) || ae.Action() != adcperr.ActionRetry {
		t.Errorf("A2A JSON-RPC error: %v", err)
	}
	if err := x.DecodeMCP([]byte(`{"structuredContent":{"status":7}}`), &v); err == nil || !strings.Contains(err.Error(), "structuredContent") {
		t.Errorf("wrong type: %v", err)
	}
}

func TestTypedDetails(t *testing.T) {
	newDetails := func(code string) wire.Value {
		switch code {
		case "RATE_LIMITED":
			return new(tinyadcp.RateLimitedDetails)
		case "TYPED_NIL":
			var d *tinyadcp.RateLimitedDetails
			return d
		}
		return nil
	}
	x := extract.New(foundingSpec(newDetails, ""))
	r := x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","details":{"limit":100,"scope":"account"}}}}`))
	if d, ok := r.Error.Details.(*tinyadcp.RateLimitedDetails); !ok || d.Limit != 100 || r.Error.DetailsErr != nil {
		t.Fatalf("typed details: %#v %v", r.Error.Details, r.Error.DetailsErr)
	}
	// A typed decoder that rejects leaves the raw details and says why.
	r = x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","details":{"scope":"account"}}}}`))
	if raw, ok := r.Error.Details.(json.RawMessage); !ok || string(raw) != `{"scope":"account"}` || r.Error.DetailsErr == nil {
		t.Fatalf("rejected details: %#v %v", r.Error.Details, r.Error.DetailsErr)
	}
	r = x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","details":{"limit":1,"__proto__":{}}}}}`))
	if _, ok := r.Error.Details.(json.RawMessage); !ok || r.Error.DetailsErr == nil {
		t.Fatalf("prototype key typed: %#v", r.Error.Details)
	}
	// Codes without a typed decoder keep raw details, typed nils included.
	for _, code := range []string{"X_A1_B2", "TYPED_NIL"} {
		r = x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"` + code + `","details":{"k":1}}}}`))
		if raw, ok := r.Error.Details.(json.RawMessage); !ok || string(raw) != `{"k":1}` || r.Error.DetailsErr != nil {
			t.Fatalf("%s: raw details: %#v", code, r.Error.Details)
		}
	}
	// Issues are read leniently.
	r = x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"VALIDATION_ERROR","issues":[{"pointer":"/a","message":"m","keyword":"type","schema_id":"s"},7]}}}`))
	if len(r.Error.Issues) != 1 || r.Error.Issues[0] != (adcperr.ValidationIssue{Pointer: "/a", Message: "m", Keyword: "type", SchemaID: "s"}) {
		t.Fatalf("issues: %+v", r.Error.Issues)
	}
}
