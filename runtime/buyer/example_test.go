package buyer_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// A typed call to an MCP seller (here go-sdk's server on loopback). With
// your generated package, adcp.Spec() and adcp.Tools.GetProducts take the
// places of the test package's.
func ExampleCall() {
	seller := testseller.NewMCPSeller(map[string]testseller.MCPReply{
		"get_things": {StructuredContent: json.RawMessage(`{"things":[{"thing_id":"t-1","name":"first"}]}`)},
	}, testseller.MCPOptions{})
	defer seller.Close()
	ctx := context.Background()

	session, err := mcpclient.ConnectHTTP(ctx, seller.URL, nil, mcpclient.ConnectOptions{})
	if err != nil {
		panic(err)
	}
	defer session.Close()
	c, err := buyer.New(tinyadcp.Spec(), session)
	if err != nil {
		panic(err)
	}
	res, err := buyer.Call(ctx, c, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
	var ae *adcperr.Error
	switch {
	case errors.As(err, &ae): // the seller's AdCP error: ae.Action(), ae.RetryAfter, ae.Details
		fmt.Println("AdCP error", ae.Code, ae.Action())
	case err != nil: // unreachable seller (*buyer.TransportError), refused bytes (*buyer.SellerDataError, with the JSON pointer), ...
		fmt.Println(err)
	case res.Status == task.Completed: // res.Response is the tool's typed response
		fmt.Println(res.Response.Things[0].Name)
	default: // submitted, working, input-required: res.TaskID, res.Submitted, ...; buyer.WaitForCompletion follows it
		fmt.Println(res.Status, res.TaskID)
	}
	// Output: first
}
