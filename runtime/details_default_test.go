package runtime_test

import (
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/runtime"
)

// The default details factory types the recommended shapes with the
// generated core package, and leaves details raw when strict decoding fails.
func TestDefaultDetailsAreTyped(t *testing.T) {
	body := []byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","message":"slow down","recovery":"transient","retry_after":5,
		"details":{"limit":100,"remaining":0,"window_seconds":60,"scope":"account"}}}}`)
	r := runtime.ExtractMCP(body)
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
	r = runtime.ExtractMCP(polluted)
	if r.Error == nil {
		t.Fatal("no error extracted")
	}
	if _, typed := r.Error.Details.(*adcp.RateLimitedDetails); typed || r.Error.DetailsErr == nil {
		t.Fatalf("details with __proto__ were typed: %T, err %v", r.Error.Details, r.Error.DetailsErr)
	}

	unknown := []byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"X_ACME_FLOOR","message":"m","details":{"floor":3}}}}`)
	if r = runtime.ExtractMCP(unknown); r.Error == nil || r.Error.DetailsErr != nil {
		t.Fatalf("unknown code: %+v", r.Error)
	}
}
