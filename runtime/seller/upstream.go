package seller

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/retry"
)

// UpstreamHTTPError is a failed call from a seller to one of its own
// upstream services, for TranslateUpstream.
type UpstreamHTTPError struct {
	StatusCode int
	// RetryAfter is the upstream's Retry-After header: seconds or an HTTP
	// date; "" when absent.
	RetryAfter string
	// Err is the underlying failure, kept for the seller's own logs; it
	// never reaches the buyer.
	Err error
}

func (e *UpstreamHTTPError) Error() string {
	msg := "upstream HTTP " + strconv.Itoa(e.StatusCode)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *UpstreamHTTPError) Unwrap() error { return e.Err }

// NewUpstreamHTTPError reads the status and Retry-After of resp.
func NewUpstreamHTTPError(resp *http.Response) *UpstreamHTTPError {
	return &UpstreamHTTPError{StatusCode: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
}

// Default delay for an upstream 429 without a usable Retry-After.
const upstreamRateLimitDelay = 10 * time.Second

// TranslateUpstream turns a seller's upstream failure into the AdCP error
// the buyer sees, without leaking anything about the upstream (no status
// text, hostnames or messages):
//   - an *adcperr.Error anywhere in the chain (an AdCP-conformant upstream) is
//     passed through unchanged, recovery, retry_after and details included;
//   - an *UpstreamHTTPError with status 429 is RATE_LIMITED, transient, with
//     the upstream's Retry-After (seconds or HTTP date, clamped to
//     [1s, 1h]) or 10s;
//   - any other upstream failure (5xx, other statuses, timeouts, network
//     errors) is SERVICE_UNAVAILABLE, transient: the buyer did nothing wrong
//     and can only retry.
//
// now is used for HTTP-date Retry-After values; nil means time.Now.
func TranslateUpstream(err error, now func() time.Time) *adcperr.Error {
	if err == nil {
		return nil
	}
	var ae *adcperr.Error
	if errors.As(err, &ae) {
		return ae
	}
	var he *UpstreamHTTPError
	if errors.As(err, &he) {
		switch {
		case he.StatusCode == http.StatusTooManyRequests:
			if now == nil {
				now = time.Now
			}
			delay, ok := retry.ParseRetryAfter(he.RetryAfter, now())
			if !ok {
				delay = upstreamRateLimitDelay
			}
			return &adcperr.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", Recovery: registry.Transient, RetryAfter: delay}
		case he.StatusCode >= 500:
			return &adcperr.Error{Code: "SERVICE_UNAVAILABLE", Message: "Service temporarily unavailable", Recovery: registry.Transient}
		}
	}
	return &adcperr.Error{Code: "SERVICE_UNAVAILABLE", Message: "An internal error occurred", Recovery: registry.Transient}
}
