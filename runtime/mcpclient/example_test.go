package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/mcpclient"
)

// A session with an MCP seller over streamable HTTP (here go-sdk's server
// on loopback, answering with a key twice). buyer.New takes the session as
// its Transport; CallToolRaw shows what the buyer decodes: the seller's
// JSON-RPC response, byte for byte, duplicate keys and all.
func ExampleConnectHTTP() {
	server := mcp.NewServer(&mcp.Implementation{Name: "seller", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "get_products", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{},
				StructuredContent: json.RawMessage(`{"products":[],"products":[{"product_id":"p1"}]}`)}, nil
		})
	seller := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{JSONResponse: true}))
	defer seller.Close()
	ctx := context.Background()

	session, err := mcpclient.ConnectHTTP(ctx, seller.URL, nil, mcpclient.ConnectOptions{}) // an http.Client carrying credentials, or nil
	if err != nil {
		panic(err)
	}
	defer session.Close()
	resp, err := session.CallToolRaw(ctx, "get_products", json.RawMessage(`{"buying_mode":"brief"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Exact)
	fmt.Println(string(resp.Result))
	// Output:
	// true
	// {"content":[],"structuredContent":{"products":[],"products":[{"product_id":"p1"}]}}
}
