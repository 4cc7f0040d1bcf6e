package examples

import (
	"context"
	"errors"
	"fmt"

	adcp "github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// Buyer is the README's ten-line buyer: get_products from the seller at
// url, over MCP; it returns the first product's name.
func Buyer(ctx context.Context, url string) (string, error) {
	// snippet: buyer
	session, err := mcpclient.ConnectHTTP(ctx, url, nil, mcpclient.ConnectOptions{}) // or a2aclient.Dial
	if err != nil {
		return "", err
	}
	defer session.Close()
	c, err := buyer.New(adcp.Spec(), session) // adcp: the package adcpgen generated
	if err != nil {
		return "", err
	}
	res, err := buyer.Call(ctx, c, adcp.Tools.GetProducts, &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeBrief, Brief: new("CTV in Q3")})
	if ae, ok := errors.AsType[*adcperr.Error](err); ok {
		return "", fmt.Errorf("the seller says %s: do %s", ae.Code, ae.Action()) // retry, correct or escalate
	}
	if err != nil {
		return "", err // unreachable seller, refused bytes (*buyer.SellerDataError names the JSON pointer), ...
	}
	if res.Status != task.Completed {
		return "", fmt.Errorf("task %s is %s", res.TaskID, res.Status) // buyer.WaitForCompletion follows it
	}
	return res.Response.Products[0].Name, nil
	// end snippet
}
