package stale_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/stale"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// On every published version: the release's recovery, details valid
// against its error-details schema, ages rounded up; none within the
// freshness target; none on 3.0, which has no such code.
func TestAdvisoryPerVersion(t *testing.T) {
	for _, v := range specseller.Versions {
		t.Run(v.Version, func(t *testing.T) {
			tree, sp := specseller.Open(t, v.Version)
			_, defined := sp.Recovery(stale.CodeStaleResponse)
			if defined != (v.Version != "3.0.26") {
				t.Fatalf("STALE_RESPONSE defined: %v", defined)
			}
			for _, tc := range []struct {
				name    string
				served  stale.Served
				details string // "" for no advisory
			}{
				{"past its target", stale.Served{Field: "products", CacheAge: 90*time.Second + time.Millisecond, FreshnessTarget: time.Minute,
					Upstream: stale.Upstream{Name: "inventory-service"}, Cause: &stale.Cause{Code: "TIMEOUT", Message: "No answer in 20s"}},
					`{"served_from_cache":true,"cache_age_seconds":91,"freshness_target_seconds":60,"upstream":{"name":"inventory-service"},"original_error":{"code":"TIMEOUT","message":"No answer in 20s"}}`},
				{"no target, an HTTP upstream", stale.Served{Field: "formats", CacheAge: time.Millisecond, Upstream: stale.Upstream{URL: "https://creative.example/mcp"}},
					`{"served_from_cache":true,"cache_age_seconds":1,"upstream":{"url":"https://creative.example/mcp"}}`},
				{"within its target", stale.Served{Field: "products", CacheAge: time.Minute, FreshnessTarget: time.Minute}, ""},
				{"fresh", stale.Served{Field: "products"}, ""},
			} {
				t.Run(tc.name, func(t *testing.T) {
					e := stale.Advisory(sp, tc.served)
					if tc.details == "" || !defined {
						if e != nil {
							t.Fatalf("an advisory: %+v", e)
						}
						return
					}
					if e == nil || e.Code != stale.CodeStaleResponse || e.Field != tc.served.Field || e.Message == "" {
						t.Fatalf("advisory %+v", e)
					}
					if r, _ := sp.Recovery(stale.CodeStaleResponse); e.Recovery != r {
						t.Errorf("recovery %q, the release's %q", e.Recovery, r)
					}
					raw, err := json.Marshal(e.Details)
					if err != nil || string(raw) != tc.details {
						t.Fatalf("details %s %v, want %s", raw, err, tc.details)
					}
					val, err := validate.New(tree, validate.Options{})
					if err != nil {
						t.Fatal(err)
					}
					if issues, err := val.Validate("error-details/stale-response.json", raw); err != nil || len(issues) > 0 {
						t.Errorf("details %s: %v %v", raw, err, issues)
					}
				})
			}
		})
	}
}
