package upstream_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller/upstream"
)

func TestTranslate(t *testing.T) {
	now := func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		name  string
		err   error
		code  string
		msg   string
		retry time.Duration
	}{
		{"429 with seconds", &upstream.Failure{StatusCode: 429, RetryAfter: "30"}, "RATE_LIMITED", "Request rate exceeded", 30 * time.Second},
		{"429 with a date", &upstream.Failure{StatusCode: 429, RetryAfter: "Wed, 01 Jan 2025 00:02:00 GMT"}, "RATE_LIMITED", "Request rate exceeded", 2 * time.Minute},
		{"429 with a huge value", &upstream.Failure{StatusCode: 429, RetryAfter: "999999"}, "RATE_LIMITED", "Request rate exceeded", time.Hour},
		{"429 without a header", &upstream.Failure{StatusCode: 429}, "RATE_LIMITED", "Request rate exceeded", 10 * time.Second},
		{"429 with junk", &upstream.Failure{StatusCode: 429, RetryAfter: "soon"}, "RATE_LIMITED", "Request rate exceeded", 10 * time.Second},
		{"503", &upstream.Failure{StatusCode: 503, Err: errors.New("db-7.internal: connection refused")}, "SERVICE_UNAVAILABLE", "Service temporarily unavailable", 0},
		{"404", &upstream.Failure{StatusCode: 404}, "SERVICE_UNAVAILABLE", "An internal error occurred", 0},
		{"network", errors.New("dial tcp 10.0.0.7:5432: i/o timeout"), "SERVICE_UNAVAILABLE", "An internal error occurred", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := upstream.Translate(c.err, now)
			if e.Code != c.code || e.Message != c.msg || e.Recovery != registry.Transient || e.RetryAfter != c.retry {
				t.Errorf("got %+v", e)
			}
			if strings.Contains(e.Error(), "internal:") || strings.Contains(e.Error(), "10.0.0.7") {
				t.Errorf("upstream detail leaked: %s", e)
			}
		})
	}
	own := &adcperr.Error{Code: "CREATIVE_REJECTED", Message: "m", Recovery: registry.Correctable, Details: map[string]any{"policy_id": "p"}}
	if got := upstream.Translate(errors.Join(errors.New("wrapped"), own), nil); got != own {
		t.Errorf("AdCP upstream error not passed through: %v", got)
	}
	if upstream.Translate(nil, nil) != nil {
		t.Error("nil error translated")
	}
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"7"}}}
	if e := upstream.Translate(upstream.NewFailure(resp), nil); e.RetryAfter != 7*time.Second {
		t.Errorf("from response: %+v", e)
	}
}
