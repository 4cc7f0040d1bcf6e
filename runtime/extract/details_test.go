package extract_test

import (
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// The core package's spec types the recommended shapes, and extraction
// leaves details raw when strict decoding fails.
func TestCoreSpecDetailsAreTyped(t *testing.T) {
	x := extract.New(adcp.Spec())
	body := []byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","message":"slow down","recovery":"transient","retry_after":5,
		"details":{"limit":100,"remaining":0,"window_seconds":60,"scope":"account"}}}}`)
	r := x.MCP(body)
	if r.Error == nil {
		t.Fatal("no error extracted")
	}
	d, ok := r.Error.Details.(*adcp.RateLimitedDetails)
	if !ok {
		t.Fatalf("Details is %T, want *adcp.RateLimitedDetails", r.Error.Details)
	}
	if d.Limit == nil || *d.Limit != 100 || d.Scope == nil || *d.Scope != adcp.RateLimitedDetailsScopeAccount {
		t.Fatalf("details decoded as %+v", d)
	}

	polluted := []byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","message":"m",
		"details":{"limit":1,"__proto__":{"admin":true}}}}}`)
	if r = x.MCP(polluted); r.Error == nil {
		t.Fatal("no error extracted")
	}
	if _, typed := r.Error.Details.(*adcp.RateLimitedDetails); typed || r.Error.DetailsErr == nil {
		t.Fatalf("details with __proto__ were typed: %T, err %v", r.Error.Details, r.Error.DetailsErr)
	}

	unknown := []byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"X_ACME_FLOOR","message":"m","details":{"floor":3}}}}`)
	if r = x.MCP(unknown); r.Error == nil || r.Error.DetailsErr != nil {
		t.Fatalf("unknown code: %+v", r.Error)
	}
}

// The default extractor classifies every code of every published manifest
// as the manifest does, and unlisted codes as terminal, whatever a
// manifest's default_unknown_recovery says.
func TestCoreSpecClassifiesManifestCodes(t *testing.T) {
	x := extract.New(adcp.Spec())
	ms := publishedManifests(t)
	newest := ms[len(ms)-1]
	if newest.Version != "3.2.0-beta.3" || len(newest.Codes) < 100 {
		t.Fatalf("newest manifest %s with %d codes", newest.Version, len(newest.Codes))
	}
	for _, m := range ms {
		for _, c := range m.Codes {
			if got := x.Recovery(c.Code); got != c.Recovery {
				t.Errorf("%s: %s is %s, the manifest says %s", m.Version, c.Code, got, c.Recovery)
			}
			r := x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"` + c.Code + `"}}}`))
			if r.Error == nil || r.Action != adcperr.ActionFor(c.Recovery) {
				t.Errorf("%s: extracted %v, action %q", c.Code, r.Error, r.Action)
			}
		}
		if m.UnknownRecovery != registry.Transient {
			t.Errorf("%s: default_unknown_recovery %q; this test wants a policy that differs from terminal", m.Version, m.UnknownRecovery)
		}
	}
	if got := x.Recovery("X_ACME_FLOOR_NOT_MET"); got != registry.Terminal {
		t.Errorf("unlisted code: %s, want terminal", got)
	}
}
