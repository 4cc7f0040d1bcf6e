package main

import (
	"fmt"

	"example.com/versioned/adcp"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// catalogJSON is what the seller sells, as the spec's Product objects:
// valid in 3.1.19 and 3.2.0-beta.5 alike. It is decoded with the version's
// strict decoder at start-up, so a product that does not match stops the
// program.
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
}`}

func loadCatalog() ([]adcp.Product, error) {
	var out []adcp.Product
	for i, s := range catalogJSON {
		var p adcp.Product
		if err := wire.Unmarshal([]byte(s), &p); err != nil {
			return nil, fmt.Errorf("catalog product %d: %w", i, err)
		}
		out = append(out, p)
	}
	return out, nil
}
