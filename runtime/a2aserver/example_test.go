package a2aserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// A seller served over A2A at /a2a with its agent card at CardPath (here
// on loopback), called by the typed buyer. With your generated package,
// adcp.Spec() and adcp.Tools take the places of the test package's.
func ExampleNewHandler() {
	srv, err := seller.New(adcpt.Spec(), seller.Options{})
	if err != nil {
		panic(err)
	}
	seller.Handle(srv, adcpt.Tools.GetProducts, func(ctx context.Context, req *adcpt.GetProductsRequest) (*adcpt.GetProductsResult, error) {
		return &adcpt.GetProductsResult{Message: "Found 1 product.", Response: &adcpt.GetProductsResponse{
			Products: []adcpt.Product{{ProductID: "ctv_premium", Name: "Premium CTV"}}}}, nil
	})
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux) // http.ListenAndServe(addr, mux) in production
	defer ts.Close()
	opts := a2aserver.Options{URL: ts.URL + "/a2a", Name: "Example seller"}
	mux.Handle("/a2a", a2aserver.NewHandler(srv, opts))
	mux.Handle(a2aserver.CardPath, a2aserver.NewCardHandler(srv, opts))

	ctx := context.Background()
	conn, err := a2aclient.Dial(ctx, ts.URL, nil)
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	c, err := buyer.New(adcpt.Spec(), conn)
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
