// Command downstream is what a Go project that uses adcpgen looks like: it
// generates bindings for the AdCP version it pins (see gen.go and
// adcp.lock), decodes a get_products result into them with the runtime and
// handles a RATE_LIMITED error the way the spec's recovery rules say.
package main

import (
	"errors"
	"fmt"
	"os"

	"example.com/downstream/adcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
)

// productsResult is an MCP CallToolResult for get_products as a seller
// would send it: the data in structuredContent, a text summary beside it.
const productsResult = `{
  "content": [{"type": "text", "text": "Found 1 product."}],
  "structuredContent": {
    "products": [{
      "product_id": "ctv_premium",
      "name": "Premium CTV",
      "description": "Connected TV inventory on premium streaming apps.",
      "publisher_properties": [{"publisher_domain": "streamer.example", "selection_type": "all"}],
      "format_ids": [{"agent_url": "https://creative.adcontextprotocol.org", "id": "video_30s"}],
      "delivery_type": "guaranteed",
      "pricing_options": [{"pricing_option_id": "cpm_usd", "pricing_model": "cpm", "currency": "USD", "fixed_price": 42.5}],
      "reporting_capabilities": {
        "available_reporting_frequencies": ["daily"],
        "expected_delay_minutes": 240,
        "timezone": "UTC",
        "supports_webhooks": false,
        "available_metrics": ["impressions", "spend"],
        "date_range_support": "date_range"
      }
    }]
  }
}`

// rateLimitedResult is the same call refused: an MCP tool error carrying an
// adcp_error with RATE_LIMITED, a retry_after and typed details.
const rateLimitedResult = `{
  "isError": true,
  "content": [{"type": "text", "text": "Rate limited; retry in 30 seconds."}],
  "structuredContent": {"adcp_error": {
    "code": "RATE_LIMITED",
    "message": "Request rate exceeded",
    "recovery": "transient",
    "retry_after": 30,
    "details": {"limit": 100, "remaining": 0, "window_seconds": 60, "scope": "account"}
  }}
}`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "downstream:", err)
		os.Exit(1)
	}
}

func run() error {
	// The extractor is built from the spec value of the package generated
	// for 3.0.26: its error codes classify errors sent without a recovery
	// field, and error details decode into its types.
	x := extract.New(adcp.Spec())
	fmt.Println("AdCP", adcp.Spec().Version())

	var products adcp.GetProductsResponse
	if err := x.DecodeMCP([]byte(productsResult), &products); err != nil {
		return fmt.Errorf("get_products: %w", err)
	}
	for _, p := range products.Products {
		price := "no fixed price"
		if cpm := firstCPM(p.PricingOptions); cpm != nil && cpm.FixedPrice != nil {
			price = fmt.Sprintf("%s %.2f CPM", cpm.Currency, *cpm.FixedPrice)
		}
		fmt.Printf("product %s: %s, %s, %s\n", p.ProductID, p.Name, p.DeliveryType, price)
	}

	err := x.DecodeMCP([]byte(rateLimitedResult), new(adcp.GetProductsResponse))
	var adcpErr *adcperr.Error
	if !errors.As(err, &adcpErr) {
		return fmt.Errorf("want an AdCP error from the refused call, got %v", err)
	}
	switch adcpErr.Action() {
	case adcperr.ActionRetry:
		fmt.Printf("%s (%s): action %s after %s\n", adcpErr.Code, adcpErr.Recovery, adcpErr.Action(), adcpErr.RetryAfter)
	default:
		return fmt.Errorf("%s: want action retry, got %s", adcpErr.Code, adcpErr.Action())
	}
	details, ok := adcpErr.Details.(*adcp.RateLimitedDetails)
	if !ok {
		return fmt.Errorf("RATE_LIMITED details decoded as %T (%v), want *adcp.RateLimitedDetails", adcpErr.Details, adcpErr.DetailsErr)
	}
	if details.Remaining != nil && details.WindowSeconds != nil && details.Scope != nil {
		fmt.Printf("details: %.0f requests left in a %.0fs window per %s\n", *details.Remaining, *details.WindowSeconds, *details.Scope)
	}
	return nil
}

// firstCPM returns the first CPM pricing option.
func firstCPM(options []adcp.PricingOption) *adcp.CPMPricingOption {
	for _, o := range options {
		if o.CPM != nil {
			return o.CPM
		}
	}
	return nil
}
