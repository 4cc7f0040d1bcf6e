package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
)

// A session with an MCP seller over streamable HTTP (here go-sdk's server
// on loopback). buyer.New takes the session as its Transport; CallToolRaw
// shows what the buyer decodes: the seller's JSON-RPC response, byte for
// byte, duplicate keys and all.
func ExampleConnectHTTP() {
	seller := testseller.NewMCPSeller(map[string]testseller.MCPReply{
		"get_products": {StructuredContent: json.RawMessage(`{"products":[],"products":[{"product_id":"p1"}]}`)},
	}, testseller.MCPOptions{JSONResponse: true})
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
