package main

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// Delivery. This seller serves no real impressions: a buy's delivery is
// what a sandbox's simulate_delivery reported on it, summed, spread over
// its packages by budget. get_media_buy_delivery reports it per buy and
// per package, with the packages' pricing.

// deliveryTotals are a buy's delivered figures.
type deliveryTotals struct {
	Impressions int64   `json:"impressions"`
	Clicks      int64   `json:"clicks"`
	Conversions int64   `json:"conversions"`
	Spend       float64 `json:"reported_spend"`
	Currency    string  `json:"currency,omitempty"`
	// Viewability is the viewability block last simulated, as the
	// controller received it (measurable_impressions, the shared
	// denominator, viewable_impressions, viewable_rate, viewed_seconds,
	// standard); nil when none was.
	Viewability json.RawMessage `json:"viewability,omitempty"`
	// Finality (3.1): whether the last simulated figures are final, when
	// they were finalized, and the measurement window they are of; unset
	// when no simulation said.
	IsFinal           *bool  `json:"is_final,omitempty"`
	FinalizedAt       string `json:"finalized_at,omitempty"`
	MeasurementWindow string `json:"measurement_window,omitempty"`
	// VendorMetricValues are the vendor metrics last simulated (3.1), as
	// the controller received them, reported on each package.
	VendorMetricValues json.RawMessage `json:"vendor_metric_values,omitempty"`
}

// getMediaBuyDelivery reports delivery of the buys named, else of the
// account's buys.
func (s *sales) getMediaBuyDelivery(ctx context.Context, req *adcp.GetMediaBuyDeliveryRequest) (*adcp.GetMediaBuyDeliveryResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	now := s.now().UTC().Truncate(time.Second)
	start := now
	resp := &adcp.GetMediaBuyDeliveryResponse{Currency: "USD", MediaBuyDeliveries: []adcp.GetMediaBuyDeliveryResponseMediaBuyDelivery{}}
	err := s.listed(ctx, p.ID, account, req.MediaBuyIDs, func(b *buy) {
		if b.start.Before(start) {
			start = b.start
		}
		resp.Currency = b.currency
		resp.MediaBuyDeliveries = append(resp.MediaBuyDeliveries, b.delivery())
	})
	if err != nil {
		return nil, err
	}
	resp.ReportingPeriod = adcp.GetMediaBuyDeliveryResponseReportingPeriod{Start: dateTime(start), End: dateTime(now)}
	return resp, nil
}

// delivery is the buy's delivery report.
func (b *buy) delivery() adcp.GetMediaBuyDeliveryResponseMediaBuyDelivery {
	d := b.delivered
	out := adcp.GetMediaBuyDeliveryResponseMediaBuyDelivery{
		MediaBuyID: b.id, Status: adcp.GetMediaBuyDeliveryResponseMediaBuyDeliveryStatus(b.status),
		Totals: adcp.GetMediaBuyDeliveryResponseMediaBuyDeliveryTotals{
			Impressions: ptr(float64(d.Impressions)), Clicks: ptr(float64(d.Clicks)), Spend: d.Spend,
			Conversions: ptr(float64(d.Conversions)),
		},
		ByPackage: []adcp.GetMediaBuyDeliveryResponseByPackageItem{},
	}
	if d.Impressions > 0 {
		out.Totals.CTR = ptr(float64(d.Clicks) / float64(d.Impressions))
	}
	if d.Viewability != nil {
		var v adcp.DeliveryMetricsViewability
		if err := adcp.Decode(d.Viewability, &v); err == nil {
			out.Totals.Viewability = &v
		}
	}
	if d.IsFinal != nil {
		out.AdditionalProperties = map[string]json.RawMessage{"is_final": objectJSON(*d.IsFinal)}
		if *d.IsFinal && d.FinalizedAt != "" {
			out.AdditionalProperties["finalized_at"] = objectJSON(d.FinalizedAt)
		}
	}
	total := b.total()
	for _, pk := range b.packages {
		share := 1 / float64(len(b.packages))
		if total > 0 {
			share = pk.budget / total
		}
		model := adcp.PricingModel(pk.pricing.model)
		if model == "" {
			model = "cpm"
		}
		row := adcp.GetMediaBuyDeliveryResponseByPackageItem{
			PackageID: pk.id, PricingModel: model, Rate: pk.pricing.rate, Currency: b.currency, Paused: ptr(pk.paused),
			Impressions: ptr(math.Round(float64(d.Impressions) * share)), Clicks: ptr(math.Round(float64(d.Clicks) * share)),
			Spend: math.Round(d.Spend*share*100) / 100, IsFinal: d.IsFinal,
		}
		if d.MeasurementWindow != "" {
			row.MeasurementWindow = ptr(d.MeasurementWindow)
		}
		extra := map[string]json.RawMessage{}
		if d.IsFinal != nil && *d.IsFinal && d.FinalizedAt != "" {
			extra["finalized_at"] = objectJSON(d.FinalizedAt)
		}
		if v := vendorShare(d.VendorMetricValues, share); v != nil {
			extra["vendor_metric_values"] = v
		}
		if len(extra) > 0 {
			row.AdditionalProperties = extra
		}
		out.ByPackage = append(out.ByPackage, row)
	}
	return out
}

// vendorShare is a package's share of the buy's vendor metric values:
// each value as simulated (a vendor's score or rate), its
// measurable_impressions scaled by the package's share.
func vendorShare(values json.RawMessage, share float64) json.RawMessage {
	var vs []map[string]any
	if len(values) == 0 || json.Unmarshal(values, &vs) != nil {
		return nil
	}
	for _, v := range vs {
		if m, ok := v["measurable_impressions"].(float64); ok {
			v["measurable_impressions"] = math.Round(m * share)
		}
	}
	return objectJSON(vs)
}
