package mcpsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime"
	"github.com/adcpgen/adcpgen/runtime/mcpsdk"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// status is a minimal strict response type for the typed step.
type status struct{ Status string }

func (s *status) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if _, bad := raw["__proto__"]; bad {
		return errors.New("forbidden key __proto__")
	}
	return json.Unmarshal(raw["status"], &s.Status)
}

func TestExtractFromSDKValues(t *testing.T) {
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: "Done."}},
		StructuredContent: map[string]any{"status": "completed"},
	}
	r, err := mcpsdk.Extract(runtime.Extractor{}, res)
	if err != nil || string(r.Data) != `{"status":"completed"}` {
		t.Fatalf("Extract = %s, %v", r.Data, err)
	}
	if _, err := mcpsdk.Extract(runtime.Extractor{}, nil); err == nil {
		t.Error("nil result accepted")
	}
	// A JSON-RPC error anywhere in the chain.
	wire := &jsonrpc.Error{Code: -32029, Message: "Rate limit exceeded",
		Data: json.RawMessage(`{"adcp_error":{"code":"RATE_LIMITED","retry_after":3}}`)}
	r, err = mcpsdk.ExtractCall(runtime.Extractor{}, nil, fmt.Errorf("calling tools/call: %w", wire))
	if err != nil || r.Error == nil || r.Error.Code != "RATE_LIMITED" || r.RetryAfter != 3*time.Second {
		t.Fatalf("ExtractCall = %+v, %v", r, err)
	}
	boom := errors.New("connection reset")
	if _, err := mcpsdk.ExtractCall(runtime.Extractor{}, nil, boom); err != boom {
		t.Errorf("transport failure: %v", err)
	}
	if _, err := mcpsdk.JSONRPCError(&runtime.Error{Code: "BUDGET_TOO_LOW", Message: "m"}); err == nil {
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
		return mcpsdk.ToolSuccess("Found 0 products.", map[string]any{"status": "completed", "products": []any{}})
	})
	server.AddTool(&mcp.Tool{Name: "create_media_buy", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcpsdk.ToolError(&runtime.Error{Code: "BUDGET_TOO_LOW", Message: "Budget is below the minimum", Field: "budget.total"}, "Budget too low.")
	})
	server.AddTool(&mcp.Tool{Name: "sync_creatives", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		je, err := mcpsdk.JSONRPCError(&runtime.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", RetryAfter: 5 * time.Second})
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

	v, err := mcpsdk.DecodeCall[status](call("get_products"))
	if err != nil || v.Status != "completed" {
		t.Fatalf("get_products: %+v, %v", v, err)
	}
	_, err = mcpsdk.DecodeCall[status](call("create_media_buy"))
	var ae *runtime.Error
	if !errors.As(err, &ae) || ae.Code != "BUDGET_TOO_LOW" || ae.Action() != runtime.ActionSurface || ae.Field != "budget.total" {
		t.Fatalf("create_media_buy: %v", err)
	}
	_, err = mcpsdk.DecodeCall[status](call("sync_creatives"))
	if !errors.As(err, &ae) || ae.Code != "RATE_LIMITED" || ae.RetryAfter != 5*time.Second {
		t.Fatalf("sync_creatives: %v", err)
	}
}
