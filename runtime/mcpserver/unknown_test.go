package mcpserver_test

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A tool the seller does not serve gets the AdCP answer, as an unknown
// skill does over A2A: a tool result with isError and the adcp_error
// UNSUPPORTED_FEATURE, the context echoed; not go-sdk's JSON-RPC -32602.
// Through go-sdk's own client, and through the runtime's extraction.
func TestUnknownTool(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("https://seller.example/mcp", keys)})
	url := start(t, s, mcpserver.Options{})

	r, raw := call(t, rawSession(t, url, "key-alice"), "get_signals", `{"signal_spec":"x","context":{"trace":"t-9"}}`)
	if r.Error == nil || r.Error.Code != "UNSUPPORTED_FEATURE" || r.Error.Recovery != "correctable" {
		t.Fatalf("extracted %+v", r)
	}
	if ctx := wire.Lenient(raw).Get("structuredContent").Get("context"); string(ctx) != `{"trace":"t-9"}` {
		t.Errorf("context not echoed: %s", raw)
	}

	sess, err := mcp.NewClient(&mcp.Implementation{Name: "buyer", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: bearer("key-alice")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	res, err := sess.CallTool(t.Context(), &mcp.CallToolParams{Name: "tasks_get", Arguments: map[string]any{"task_id": "t"}})
	if err != nil {
		t.Fatalf("a JSON-RPC error instead of a tool result: %v", err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	ae, _ := sc["adcp_error"].(map[string]any)
	if !res.IsError || ae["code"] != "UNSUPPORTED_FEATURE" {
		t.Errorf("go-sdk client got %+v", res)
	}
	// The tools it serves are unaffected, and credentials are still asked
	// for before anything else (the HTTP gate: 401).
	if r, _ := call(t, rawSession(t, url, "key-alice"), "list_creatives", `{}`); r.Error != nil {
		t.Errorf("list_creatives: %+v", r.Error)
	}
	if resp := rawPOST(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_signals","arguments":{}}}`); resp.StatusCode != 401 {
		t.Errorf("anonymous call of an unknown tool: HTTP %d, want 401", resp.StatusCode)
	}
}
