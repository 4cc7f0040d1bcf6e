package buyer_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// A typed call to an MCP seller (here runtime/seller on loopback). With
// your generated package, adcp.Spec() and adcp.Tools.GetProducts take the
// places of adcpt's, the package generated from this project's test
// schemas.
func ExampleCall() {
	url, stop := serve() // the seller's MCP endpoint
	defer stop()
	ctx := context.Background()

	session, err := mcpclient.ConnectHTTP(ctx, url, nil, mcpclient.ConnectOptions{})
	if err != nil {
		panic(err)
	}
	defer session.Close()
	c, err := buyer.New(adcpt.Spec(), session)
	if err != nil {
		panic(err)
	}
	res, err := buyer.Call(ctx, c, adcpt.Tools.GetProducts, &adcpt.GetProductsRequest{BuyingMode: adcpt.GetProductsRequestBuyingModeBrief, Brief: new("CTV in Q3")})
	var ae *adcperr.Error
	switch {
	case errors.As(err, &ae): // the seller's AdCP error: ae.Action(), ae.RetryAfter, ae.Details
		fmt.Println("AdCP error", ae.Code, ae.Action())
	case err != nil: // unreachable seller (*buyer.TransportError), refused bytes (*buyer.SellerDataError, with the JSON pointer), ...
		fmt.Println(err)
	case res.Status == task.Completed: // res.Response is the tool's typed response
		fmt.Println(res.Response.Products[0].Name)
	default: // submitted, working, input-required: res.TaskID, res.Submitted, ...; buyer.WaitForCompletion follows it
		fmt.Println(res.Status, res.TaskID)
	}
	// Output: CTV, prime time
}

// serve starts a seller of one product on loopback and returns its URL
// and what stops it.
func serve() (url string, stop func()) {
	srv, err := seller.New(adcpt.Spec(), seller.Options{})
	if err != nil {
		panic(err)
	}
	seller.HandleSync(srv, adcpt.Tools.GetProducts, func(context.Context, *adcpt.GetProductsRequest) (*adcpt.GetProductsResponse, error) {
		return &adcpt.GetProductsResponse{Products: []adcpt.Product{{ProductID: "ctv-1", Name: "CTV, prime time"}}}, nil
	})
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(h)
	return ts.URL, ts.Close
}
