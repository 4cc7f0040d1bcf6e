package main

import (
	"strconv"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// get_media_buy_delivery's start_date and end_date select among the dated
// batches comply_test_controller simulated (3.2's delivery_date) over the
// half-open interval [start_date, end_date), on every release the seller
// serves; undated batches stay in every period, and a period that is
// empty or not dates is the task's VALIDATION_ERROR at its field (in a
// response of the task's shape, as 3.2's storyboards read it).
func TestDeliveryDateRange(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	buy := call(t, cs, "create_media_buy", buyArgs("date-range-key-000000001", "", ""))
	id, _ := wire.Lenient(buy.Data).Get("media_buy_id").AsString()
	for _, b := range []struct {
		date        string
		impressions int
	}{{"2026-04-01", 100}, {"2026-04-15", 200}, {"2026-04-16", 400}, {"", 8}, {"2026-04-15", 1000}} {
		dated := ""
		if b.date != "" {
			dated = `"delivery_date":"` + b.date + `",`
		}
		r := call(t, cs, "comply_test_controller", `{"adcp_version":"3.2-beta.5","account":`+sandboxAccount+`,"scenario":"simulate_delivery","params":{"media_buy_id":"`+id+`",`+dated+
			`"impressions":`+strconv.Itoa(b.impressions)+`,"reported_spend":{"amount":`+strconv.Itoa(b.impressions/10)+`,"currency":"USD"}}}`)
		if string(wire.Lenient(r.Data).Get("success")) != "true" {
			t.Fatalf("simulate %q: %s %+v", b.date, r.Data, r.Error)
		}
	}
	cases := []struct {
		name, period           string
		impressions, spend     string
		start, end, errorField string
	}{
		{name: "lifetime", impressions: "1708", spend: "170"},
		{name: "half-open day", period: `"start_date":"2026-04-15","end_date":"2026-04-16"`, impressions: "1208", spend: "120",
			start: "2026-04-15T00:00:00.000Z", end: "2026-04-16T00:00:00.000Z"},
		{name: "from a date", period: `"start_date":"2026-04-15"`, impressions: "1608", spend: "160", start: "2026-04-15T00:00:00.000Z"},
		{name: "until a date", period: `"end_date":"2026-04-15"`, impressions: "108", spend: "10", end: "2026-04-15T00:00:00.000Z"},
		{name: "no dated batch", period: `"start_date":"2026-05-01","end_date":"2026-06-01"`, impressions: "8", spend: "0"},
		{name: "empty period", period: `"start_date":"2026-04-15","end_date":"2026-04-15"`, errorField: "start_date"},
		{name: "reversed period", period: `"start_date":"2026-04-16","end_date":"2026-04-15"`, errorField: "start_date"},
		{name: "not a date", period: `"start_date":"2026-02-30"`, errorField: "start_date"},
	}
	for _, version := range []string{"", `"adcp_version":"3.1",`, `"adcp_version":"3.2-beta.5",`} {
		for _, tc := range cases {
			args := `{` + version + `"media_buy_ids":["` + id + `"]`
			if tc.period != "" {
				args += "," + tc.period
			}
			r := call(t, cs, "get_media_buy_delivery", args+"}")
			if tc.errorField != "" {
				if e := wire.Lenient(r.Data).Get("errors").Index(0); r.Error != nil || !e.Get("code").StringIs("VALIDATION_ERROR") || !e.Get("field").StringIs(tc.errorField) {
					t.Errorf("%s %s: %+v %s, want VALIDATION_ERROR at %s", version, tc.name, r.Error, r.Data, tc.errorField)
				}
				continue
			}
			if r.Error != nil {
				t.Errorf("%s %s: %+v", version, tc.name, r.Error)
				continue
			}
			d := wire.Lenient(r.Data)
			totals := d.Get("media_buy_deliveries").Index(0).Get("totals")
			if string(totals.Get("impressions")) != tc.impressions || string(totals.Get("spend")) != tc.spend {
				t.Errorf("%s %s: totals %s, want %s impressions and %s spend", version, tc.name, totals, tc.impressions, tc.spend)
			}
			if pk := d.Get("media_buy_deliveries").Index(0).Get("by_package").Index(0); string(pk.Get("impressions")) != tc.impressions {
				t.Errorf("%s %s: package %s, want %s impressions", version, tc.name, pk, tc.impressions)
			}
			period := d.Get("reporting_period")
			if tc.start != "" && !period.Get("start").StringIs(tc.start) || tc.end != "" && !period.Get("end").StringIs(tc.end) {
				t.Errorf("%s %s: reporting_period %s, want [%s, %s)", version, tc.name, period, tc.start, tc.end)
			}
		}
	}
}

// A delivery_date that is not a calendar date is the controller's
// INVALID_PARAMS, and records nothing.
func TestSimulateDeliveryDate(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	buy := call(t, cs, "create_media_buy", buyArgs("date-range-key-000000002", "", ""))
	id, _ := wire.Lenient(buy.Data).Get("media_buy_id").AsString()
	for _, date := range []string{"2026-13-01", "yesterday"} {
		r := call(t, cs, "comply_test_controller", `{"adcp_version":"3.2-beta.5","account":`+sandboxAccount+`,"scenario":"simulate_delivery","params":{"media_buy_id":"`+id+`",`+
			`"delivery_date":"`+date+`","impressions":5}}`)
		if string(wire.Lenient(r.Data).Get("success")) == "true" {
			t.Errorf("%s: accepted: %s", date, r.Data)
		}
	}
	r := call(t, cs, "get_media_buy_delivery", `{"media_buy_ids":["`+id+`"]}`)
	if got := string(wire.Lenient(r.Data).Get("media_buy_deliveries").Index(0).Get("totals").Get("impressions")); got != "0" {
		t.Errorf("impressions %s after refused batches, want 0", got)
	}
}

// sandboxAccount is the account 3.2's comply_test_controller requires.
const sandboxAccount = `{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example","sandbox":true}`
