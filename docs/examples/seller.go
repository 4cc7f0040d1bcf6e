package examples

import (
	"context"
	"net/http"

	adcp "github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// Seller is the README's ten-line seller: get_products, typed, over MCP.
// find is the seller's catalogue: what it answers get_products with, in
// the spec version adcp was generated from.
func Seller(find func(*adcp.GetProductsRequest) *adcp.GetProductsResponse) (http.Handler, error) {
	// snippet: seller
	srv, err := seller.New(adcp.Spec(), seller.Options{}) // Options: schemas, authentication, tasks
	if err != nil {
		return nil, err
	}
	seller.HandleSync(srv, adcp.Tools.GetProducts, func(ctx context.Context, req *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
		// req was decoded strictly from the buyer's bytes; the answer is encoded strictly.
		return find(req), nil // your catalogue: an *adcp.GetProductsResponse of your spec version
	})
	return mcpserver.NewStreamableHandler(srv, mcpserver.Options{}) // mount on "/mcp"; a2aserver for A2A
	// end snippet
}
