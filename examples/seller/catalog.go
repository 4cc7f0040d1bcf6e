package main

import (
	"encoding/json"
	"fmt"
	"slices"

	"example.com/seller/adcp"
)

// catalogJSON is what the seller sells, as the spec's Product objects. It
// is decoded with the generated strict decoder at start-up, so a product
// that does not match AdCP 3.0.26 stops the program.
//
// test-product with test-pricing (or default) are the ids the compliance
// storyboards send without discovering them first.
var catalogJSON = []string{`{
  "product_id": "ctv_premium",
  "name": "Premium CTV",
  "description": "Connected TV inventory on premium streaming apps, 15 and 30 second spots.",
  "publisher_properties": [{"publisher_domain": "streamer.example", "selection_type": "all"}],
  "channels": ["ctv"],
  "format_ids": [{"agent_url": "https://creative.adcontextprotocol.org", "id": "video_30s"}],
  "delivery_type": "guaranteed",
  "pricing_options": [{"pricing_option_id": "cpm_usd_fixed", "pricing_model": "cpm", "currency": "USD", "fixed_price": 42.5}],
  "reporting_capabilities": {
    "available_reporting_frequencies": ["daily"],
    "expected_delay_minutes": 240,
    "timezone": "UTC",
    "supports_webhooks": false,
    "available_metrics": ["impressions", "spend", "completed_views"],
    "date_range_support": "date_range"
  }
}`, `{
  "product_id": "test-product",
  "name": "Run of network display",
  "description": "Standard display units across the network, sold on a non-guaranteed CPM.",
  "publisher_properties": [{"publisher_domain": "news.example", "selection_type": "all"}],
  "channels": ["display"],
  "format_ids": [{"agent_url": "https://creative.adcontextprotocol.org", "id": "display_300x250"}],
  "delivery_type": "non_guaranteed",
  "pricing_options": [
    {"pricing_option_id": "default", "pricing_model": "cpm", "currency": "USD", "floor_price": 1.0},
    {"pricing_option_id": "test-pricing", "pricing_model": "cpm", "currency": "USD", "floor_price": 1.0}
  ],
  "reporting_capabilities": {
    "available_reporting_frequencies": ["daily"],
    "expected_delay_minutes": 240,
    "timezone": "UTC",
    "supports_webhooks": false,
    "available_metrics": ["impressions", "spend", "clicks"],
    "date_range_support": "date_range"
  }
}`}

// catalog holds the products by id, in catalog order, and the ids of
// each product's pricing options.
type catalog struct {
	products []adcp.Product
	byID     map[string]*adcp.Product
	pricing  map[string][]string
}

func loadCatalog() (*catalog, error) {
	c := &catalog{byID: map[string]*adcp.Product{}, pricing: map[string][]string{}}
	c.products = make([]adcp.Product, len(catalogJSON))
	for i, raw := range catalogJSON {
		p := &c.products[i]
		if err := adcp.Decode([]byte(raw), p); err != nil {
			return nil, fmt.Errorf("catalog product %d: %w", i, err)
		}
		// The catalog is this program's own JSON: encoding/json may read
		// the pricing option ids out of it.
		var ids struct {
			PricingOptions []struct {
				ID string `json:"pricing_option_id"`
			} `json:"pricing_options"`
		}
		if err := json.Unmarshal([]byte(raw), &ids); err != nil {
			return nil, fmt.Errorf("catalog product %d: %w", i, err)
		}
		for _, o := range ids.PricingOptions {
			c.pricing[p.ProductID] = append(c.pricing[p.ProductID], o.ID)
		}
		c.byID[p.ProductID] = p
	}
	return c, nil
}

// hasPricing reports whether product offers the pricing option id.
func (c *catalog) hasPricing(product, id string) bool {
	return slices.Contains(c.pricing[product], id)
}
