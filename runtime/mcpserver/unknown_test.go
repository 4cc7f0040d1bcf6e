package mcpserver_test

import (
	"io"
	"net/http"
	"strings"
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

// A client of MCP 2026-07-28, which names its protocol version in every
// request's _meta and requires every tool result to say its resultType,
// gets "complete" on the answer to a tool the seller does not serve, as
// on any other result (the official compliance fuzzer refuses a result
// without it); tools/list names no tool the seller does not serve.
func TestUnknownToolResultType(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("https://seller.example/mcp", keys)})
	url := start(t, s, mcpserver.Options{Stateless: true, JSONResponse: true})
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"buyer","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tc := range []struct{ name, tool, params string }{
		{"an unknown tool", "tasks_get", `{"name":"tasks_get","arguments":{"task_id":" ","context":{"c":1}},` + meta + `}`},
		{"without arguments", "get_signals", `{"name":"get_signals",` + meta + `}`},
		{"a tool it serves", "list_creatives", `{"name":"list_creatives","arguments":{},` + meta + `}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post20260728(t, url, "tools/call", tc.tool, `{"jsonrpc":"2.0","id":104,"method":"tools/call","params":`+tc.params+`}`)
			result := wire.Lenient(body).Get("result")
			if !result.Get("resultType").StringIs("complete") {
				t.Fatalf("HTTP %d, no resultType \"complete\": %s", resp.StatusCode, body)
			}
			if tc.name != "a tool it serves" && !result.Get("structuredContent").Get("adcp_error").Get("code").StringIs("UNSUPPORTED_FEATURE") {
				t.Fatalf("not UNSUPPORTED_FEATURE: %s", body)
			}
		})
	}
	if _, body := post20260728(t, url, "tools/list", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}`); !strings.Contains(string(body), `"list_creatives"`) || strings.Contains(string(body), "unserved") {
		t.Fatalf("tools/list: %s", body)
	}
}

// post20260728 POSTs a JSON-RPC request as an MCP 2026-07-28 client does
// (the protocol version, the method and the tool's name in headers too),
// with alice's key.
func post20260728(t *testing.T, url, method, tool, body string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if tool != "" {
		req.Header.Set("Mcp-Name", tool)
	}
	req.Header.Set("Authorization", "Bearer key-alice")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}
