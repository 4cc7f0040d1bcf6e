package mcpsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/mcpsdk"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// x classifies the codes these tests send.
var x = extract.New(registry.NewSpec(registry.SpecConfig{Codes: registry.ErrorCodes{
	{Code: "BUDGET_TOO_LOW", Recovery: registry.Correctable}, {Code: "RATE_LIMITED", Recovery: registry.Transient},
}}))

func TestExtractFromSDKValues(t *testing.T) {
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: "Done."}},
		StructuredContent: map[string]any{"status": "completed"},
	}
	r, err := mcpsdk.ExtractResult(x, res)
	if err != nil || string(r.Data) != `{"status":"completed"}` {
		t.Fatalf("Extract = %s, %v", r.Data, err)
	}
	if _, err := mcpsdk.ExtractResult(x, nil); err == nil {
		t.Error("nil result accepted")
	}
	// A JSON-RPC error anywhere in the chain.
	wire := &jsonrpc.Error{Code: -32029, Message: "Rate limit exceeded",
		Data: json.RawMessage(`{"adcp_error":{"code":"RATE_LIMITED","retry_after":3}}`)}
	r, err = mcpsdk.ExtractCall(x, nil, fmt.Errorf("calling tools/call: %w", wire))
	if err != nil || r.Error == nil || r.Error.Code != "RATE_LIMITED" || r.Error.RetryAfter != 3*time.Second || r.Action != adcperr.ActionRetry {
		t.Fatalf("ExtractCall = %+v, %v", r, err)
	}
	boom := errors.New("connection reset")
	if _, err := mcpsdk.ExtractCall(x, nil, boom); err != boom {
		t.Errorf("transport failure: %v", err)
	}
	if _, err := mcpsdk.RPCError(&adcperr.Error{Code: "BUDGET_TOO_LOW", Message: "m"}); err == nil {
		t.Error("tool-level code got a JSON-RPC error")
	}
}

// TestEndToEnd runs a real SDK server and client in memory: a tool that
// succeeds, one that returns an AdCP tool error, and one rejected with a
// reserved JSON-RPC code.
func TestEndToEnd(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	server := mcp.NewServer(&mcp.Implementation{Name: "seller", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	server.AddTool(&mcp.Tool{Name: "get_products", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcpserver.ResultOf(&seller.Answer{Status: task.Completed, Body: json.RawMessage(`{"status":"completed","products":[]}`), Message: "Found 0 products."}, false), nil
	})
	server.AddTool(&mcp.Tool{Name: "create_media_buy", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcpserver.ResultOf(seller.ErrorAnswer(&adcperr.Error{Code: "BUDGET_TOO_LOW", Message: "Budget is below the minimum", Field: "budget.total"}), false), nil
	})
	server.AddTool(&mcp.Tool{Name: "sync_creatives", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		je, err := mcpsdk.RPCError(&adcperr.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", RetryAfter: 5 * time.Second})
		if err != nil {
			return nil, err
		}
		return nil, je
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "buyer", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string) (*mcp.CallToolResult, error) {
		return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	}

	decode := func(name string) (adcp.MCPResponse, error) {
		var v adcp.MCPResponse
		res, err := call(name)
		return v, mcpsdk.DecodeCall(x, res, err, &v)
	}
	v, err := decode("get_products")
	if err != nil || v.Status == nil || *v.Status != adcp.TaskStatusCompleted {
		t.Fatalf("get_products: %+v, %v", v, err)
	}
	_, err = decode("create_media_buy")
	var ae *adcperr.Error
	if !errors.As(err, &ae) || ae.Code != "BUDGET_TOO_LOW" || ae.Action() != adcperr.ActionSurface || ae.Field != "budget.total" {
		t.Fatalf("create_media_buy: %v", err)
	}
	_, err = decode("sync_creatives")
	if !errors.As(err, &ae) || ae.Code != "RATE_LIMITED" || ae.RetryAfter != 5*time.Second {
		t.Fatalf("sync_creatives: %v", err)
	}
}
