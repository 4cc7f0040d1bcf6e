package testseller_test

// This file holds every call into the runtime's extraction API, so that a
// rename there touches one file: it checks that the bytes both transports
// return are what extraction and the strict decoders need.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

const (
	duplicate = `{"status":"completed","products":[{"product_id":"a","product_id":"b"}]}`
	proto     = `{"status":"completed","payload":{"\u005f_proto__":{"polluted":true}}}`
	rateLimit = `{"adcp_error":{"code":"RATE_LIMITED","message":"slow down","recovery":"transient","retry_after":30}}`
)

// x is the buyer: the core package's spec.
var x = extract.New(adcp.Spec())

// strictFailure decodes r's data with a strict generated type and returns
// the error, which must name pointer.
func strictFailure(t *testing.T, r *extract.Result, wantData, pointer string) {
	t.Helper()
	if r.Failure() != nil || string(r.Data) != wantData {
		t.Fatalf("extracted %s (%v), want %s", r.Data, r.Failure(), wantData)
	}
	err := adcp.Decode(r.Data, new(adcp.MCPResponse))
	if err == nil || !strings.Contains(err.Error(), pointer) {
		t.Errorf("strict decoding: %v, want an error at %s", err, pointer)
	}
}

func TestMCPBytesExtract(t *testing.T) {
	for _, opts := range []testseller.MCPOptions{{}, {JSONResponse: true}} {
		seller := testseller.NewMCPSeller(map[string]testseller.MCPReply{
			"duplicate": {StructuredContent: json.RawMessage(duplicate), Text: "1 product"},
			"proto":     {Text: proto},
			"limited":   {RPCError: &jsonrpc.Error{Code: -32029, Message: "Rate limited", Data: json.RawMessage(rateLimit)}},
		}, opts)
		defer seller.Close()
		c, err := mcpclient.ConnectHTTP(t.Context(), seller.URL, seller.Client(), mcpclient.ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		call := func(tool string) *extract.Result {
			resp, err := c.CallToolRaw(t.Context(), tool, nil)
			if err != nil {
				t.Fatal(err)
			}
			return x.MCP(resp.Message)
		}
		strictFailure(t, call("duplicate"), duplicate, "/products/0/product_id")
		strictFailure(t, call("proto"), proto, "/payload/__proto__")
		r := call("limited")
		if r.Error == nil || r.Error.Code != "RATE_LIMITED" || r.Action != adcperr.ActionRetry || r.Error.RetryAfter.Seconds() != 30 {
			t.Errorf("JSON-RPC error: %+v", r)
		}
	}
}

func TestA2ABytesExtract(t *testing.T) {
	seller := testseller.NewA2ASeller(map[string]testseller.A2AReply{
		"duplicate": {Data: map[string]json.RawMessage{"status": json.RawMessage(`"completed"`), "products": json.RawMessage(`[{"product_id":"a","product_id":"b"}]`)}},
		"proto":     {Data: map[string]json.RawMessage{"status": json.RawMessage(`"completed"`), "payload": json.RawMessage(`{"\u005f_proto__":{"polluted":true}}`)}},
		"failed":    {State: a2a.TaskStateFailed, Data: map[string]json.RawMessage{"adcp_error": json.RawMessage(`{"code":"BUDGET_TOO_LOW","message":"raise it","recovery":"correctable"}`)}},
	}, testseller.A2AOptions{})
	defer seller.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c, err := a2aclient.Dial(t.Context(), seller.URL, &http.Client{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	call := func(skill string) *extract.Result {
		resp, err := c.SendMessageRaw(t.Context(), skill, nil)
		if err != nil {
			t.Fatal(err)
		}
		return x.A2A(resp.Result)
	}
	// The DataPart's members are a Go map on the seller, so in key order.
	strictFailure(t, call("duplicate"), `{"products":[{"product_id":"a","product_id":"b"}],"status":"completed"}`, "/products/0/product_id")
	strictFailure(t, call("proto"), `{"payload":{"\u005f_proto__":{"polluted":true}},"status":"completed"}`, "/payload/__proto__")
	r := call("failed")
	if r.Error == nil || r.Error.Code != "BUDGET_TOO_LOW" || r.Action != adcperr.ActionSurface {
		t.Errorf("failed task: %+v", r)
	}
}
