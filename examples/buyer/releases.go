package main

import (
	"context"
	"fmt"
	"slices"

	"example.com/buyer/adcp31"
	"example.com/buyer/adcp32"

	"github.com/adcpgen/adcpgen/runtime/buyer"
)

// laterReleases asks for products in each later release the seller
// speaks, with a client pinned there. Nothing is asked in a release the
// seller does not list: the client would refuse it before sending
// (buyer.VersionError).
func laterReleases(ctx context.Context, c *buyer.Client, releases []string) error {
	brief := new("Display and video for a coffee brand, 4 weeks in January")
	if c31, err := c.Pin(adcp31.Spec()); err == nil && slices.Contains(releases, c31.Release()) {
		res, err := buyer.Call(ctx, c31, adcp31.Tools.GetProducts, &adcp31.GetProductsRequest{BuyingMode: adcp31.GetProductsRequestBuyingModeBrief, Brief: brief})
		if err != nil {
			return explain("get_products at "+c31.Release(), err)
		}
		fmt.Printf("get_products at %s: %s, %d products\n", c31.Release(), res.Status, len(res.Response.Products))
	}
	if c32, err := c.Pin(adcp32.Spec()); err == nil && slices.Contains(releases, c32.Release()) {
		res, err := buyer.Call(ctx, c32, adcp32.Tools.GetProducts, &adcp32.GetProductsRequest{BuyingMode: adcp32.GetProductsRequestBuyingModeBrief, Brief: brief})
		if err != nil {
			return explain("get_products at "+c32.Release(), err)
		}
		fmt.Printf("get_products at %s: %s, %d products\n", c32.Release(), res.Status, len(res.Response.Products))
	}
	return nil
}
