package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// One builder per wire shape: a seller written on go-sdk that answers
// with ResultOf sends, for the same answer, the bytes seller.Server's MCP
// transport sends. Before, such a seller built its results with
// mcpsdk.ToolSuccess (a terse text item, the data not repeated) and
// mcpsdk.ToolError (its own second sentence); the server's answer won:
// the JSON text mirrored in content[0].text, TerseText after an error.
func TestGoSDKSellerSendsServerBytes(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	served := rawSession(t, start(t, s, mcpserver.Options{}), "")

	// The same seller behind a plain go-sdk server: its handlers ask
	// seller.Server for the answer and build the result with ResultOf.
	sdk := mcp.NewServer(&mcp.Implementation{Name: "go-sdk seller", Version: "1"}, nil)
	for _, tool := range []string{"get_products", "create_media_buy"} {
		sdk.AddTool(&mcp.Tool{Name: tool, InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := s.Serve(ctx, tool, &seller.Call{Transport: seller.TransportMCP, Arguments: req.Params.Arguments})
			return mcpserver.ResultOf(a, false), nil
		})
	}
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdk }, nil))
	t.Cleanup(ts.Close)
	direct := rawSession(t, ts.URL, "")

	for _, c := range []struct{ name, tool, args, want string }{
		{"success", "get_products", `{"buying_mode":"brief","brief":"ctv","context":{"trace":"t-1"}}`, `"structuredContent"`},
		{"schema error", "get_products", `{"buying_mode":"sometimes"}`, `"isError":true`},
		{"seller error", "create_media_buy", `{"context":{"n":1}}`, `"isError":true`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, viaServer := call(t, served, c.tool, c.args)
			_, viaSDK := call(t, direct, c.tool, c.args)
			if string(viaServer) != string(viaSDK) {
				t.Errorf("seller.Server sent %s\ngo-sdk + ResultOf sent %s", viaServer, viaSDK)
			}
			if !json.Valid(viaServer) || !contains(viaServer, c.want) {
				t.Errorf("result %s lacks %s", viaServer, c.want)
			}
		})
	}
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }
