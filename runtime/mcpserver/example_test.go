package mcpserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// A seller served over MCP's streamable HTTP at /mcp (here on loopback),
// called by the typed buyer. With your generated package, adcp.Spec() and
// adcp.Tools take the places of the test package's.
func ExampleNewStreamableHandler() {
	srv, err := seller.New(adcpt.Spec(), seller.Options{})
	if err != nil {
		panic(err)
	}
	seller.Handle(srv, adcpt.Tools.GetProducts, func(ctx context.Context, req *adcpt.GetProductsRequest) (*adcpt.GetProductsResult, error) {
		return &adcpt.GetProductsResult{Message: "Found 1 product.", Response: &adcpt.GetProductsResponse{
			Products: []adcpt.Product{{ProductID: "ctv_premium", Name: "Premium CTV"}}}}, nil
	})
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ts := httptest.NewServer(mux) // http.ListenAndServe(addr, mux) in production
	defer ts.Close()

	ctx := context.Background()
	session, err := mcpclient.ConnectHTTP(ctx, ts.URL+"/mcp", nil, mcpclient.ConnectOptions{})
	if err != nil {
		panic(err)
	}
	defer session.Close()
	c, err := buyer.New(adcpt.Spec(), session)
	if err != nil {
		panic(err)
	}
	brief := "CTV"
	res, err := buyer.Call(ctx, c, adcpt.Tools.GetProducts, &adcpt.GetProductsRequest{BuyingMode: "brief", Brief: &brief})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, res.Response.Products[0].Name)
	// Output: completed Premium CTV
}
