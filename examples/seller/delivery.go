package main

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
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
	// Days are the dated batches among the figures above (3.2's
	// simulate_delivery delivery_date), one row per UTC date, in the order
	// first simulated: a request's start_date and end_date select among
	// them, while undated batches stay cumulative.
	Days []deliveryDay `json:"days,omitempty"`
	// ConversionValue and CommissionableValue are the attributed
	// transaction value simulated and (3.2, revenue_share pricing) the
	// settled part of it commission is charged on, summed; nil until a
	// simulation gives them.
	ConversionValue     *float64 `json:"conversion_value,omitempty"`
	CommissionableValue *float64 `json:"commissionable_value,omitempty"`
}

// deliveryDay is the delivery simulated for one UTC date.
type deliveryDay struct {
	Date        string  `json:"date"` // YYYY-MM-DD
	Impressions int64   `json:"impressions"`
	Clicks      int64   `json:"clicks"`
	Conversions int64   `json:"conversions"`
	Spend       float64 `json:"reported_spend"`
}

// addDay adds a dated batch to its date's row.
func (d *deliveryTotals) addDay(day deliveryDay) {
	for i := range d.Days {
		if r := &d.Days[i]; r.Date == day.Date {
			r.Impressions += day.Impressions
			r.Clicks += day.Clicks
			r.Conversions += day.Conversions
			r.Spend += day.Spend
			return
		}
	}
	d.Days = append(d.Days, day)
}

// dateRange is a get_media_buy_delivery reporting period: the half-open
// interval [from, to) of UTC dates (YYYY-MM-DD), either end open when
// empty. AdCP 3.2 states the rule (start_date inclusive, end_date
// exclusive, comply_test_controller's delivery_date compared with both);
// earlier releases name the dates without saying, and their controllers
// date no batch, so the one rule serves every release.
type dateRange struct{ from, to string }

// contains reports whether date is in r.
func (r dateRange) contains(date string) bool {
	return (r.from == "" || date >= r.from) && (r.to == "" || date < r.to)
}

// within is d restricted to r: the dated rows outside it taken out of the
// figures (undated batches stay, as AdCP's controller schema says:
// "omit to preserve cumulative, unfiltered simulation behavior").
func (d deliveryTotals) within(r dateRange) deliveryTotals {
	if r == (dateRange{}) {
		return d
	}
	out := d
	out.Days = nil
	for _, day := range d.Days {
		if r.contains(day.Date) {
			out.Days = append(out.Days, day)
			continue
		}
		out.Impressions -= day.Impressions
		out.Clicks -= day.Clicks
		out.Conversions -= day.Conversions
		out.Spend -= day.Spend
	}
	out.Spend = math.Round(out.Spend*100) / 100
	return out
}

// deliveryPeriod reads get_media_buy_delivery's start_date and end_date
// (YYYY-MM-DD, the schema's pattern): a range whose end is not after its
// start is refused (VALIDATION_ERROR at start_date), as AdCP 3.2 requires
// ("must be later than start_date").
func deliveryPeriod(start, end *string) (dateRange, *adcp.Error) {
	var r dateRange
	for _, v := range []struct {
		in   *string
		to   *string
		name string
	}{{start, &r.from, "start_date"}, {end, &r.to, "end_date"}} {
		if v.in == nil {
			continue
		}
		if _, err := time.Parse(time.DateOnly, *v.in); err != nil {
			return dateRange{}, &adcp.Error{Code: "VALIDATION_ERROR", Message: v.name + " is not a calendar date (YYYY-MM-DD)", Field: ptr(v.name)}
		}
		*v.to = *v.in
	}
	if r.from != "" && r.to != "" && r.to <= r.from {
		return dateRange{}, &adcp.Error{Code: "VALIDATION_ERROR", Message: "end_date must be later than start_date (the reporting period is [start_date, end_date))",
			Field: ptr("start_date")}
	}
	return r, nil
}

// periodBound is a reporting-period boundary: midnight UTC of date, at
// millisecond precision (the exact boundary the figures were summed over).
func periodBound(date string) wire.DateTime {
	t, _ := time.Parse(time.DateOnly, date)
	return wire.DateTime(t.UTC().Format("2006-01-02T15:04:05.000Z"))
}

// getMediaBuyDelivery reports delivery of the buys named, else of the
// account's buys.
func (s *sales) getMediaBuyDelivery(ctx context.Context, req *adcp.GetMediaBuyDeliveryRequest) (*adcp.GetMediaBuyDeliveryResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	now := s.now().UTC().Truncate(time.Second)
	resp := &adcp.GetMediaBuyDeliveryResponse{Currency: "USD", MediaBuyDeliveries: []adcp.GetMediaBuyDeliveryResponseMediaBuyDelivery{}}
	period, bad := deliveryPeriod(req.StartDate, req.EndDate)
	if bad != nil {
		// The task's own error, in a response of the task's shape (the
		// storyboards check it against the response schema): no delivery,
		// over no period.
		resp.ReportingPeriod = adcp.GetMediaBuyDeliveryResponseReportingPeriod{Start: dateTime(now), End: dateTime(now)}
		resp.Errors = []adcp.Error{*bad}
		return resp, nil
	}
	start := now
	err := s.listed(ctx, p.ID, account, req.MediaBuyIDs, func(b *buy) {
		if b.start.Before(start) {
			start = b.start
		}
		resp.Currency = b.currency
		resp.MediaBuyDeliveries = append(resp.MediaBuyDeliveries, b.delivery(period))
	})
	if err != nil {
		return nil, err
	}
	resp.ReportingPeriod = adcp.GetMediaBuyDeliveryResponseReportingPeriod{Start: dateTime(start), End: dateTime(now)}
	if period.from != "" {
		resp.ReportingPeriod.Start = periodBound(period.from)
	}
	if period.to != "" {
		resp.ReportingPeriod.End = periodBound(period.to)
	}
	return resp, nil
}

// delivery is the buy's delivery report over period.
func (b *buy) delivery(period dateRange) adcp.GetMediaBuyDeliveryResponseMediaBuyDelivery {
	d := b.delivered.within(period)
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
	out.Totals.ConversionValue = d.ConversionValue
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
		if d.ConversionValue != nil {
			row.ConversionValue = ptr(math.Round(*d.ConversionValue*share*100) / 100)
		}
		if d.CommissionableValue != nil {
			extra["commissionable_value"] = objectJSON(math.Round(*d.CommissionableValue*share*100) / 100)
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
