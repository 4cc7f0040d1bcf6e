package upstream

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/retry"
)

// Failure is a failed HTTP call from a seller to one of its own upstream
// services, for Translate.
type Failure struct {
	// StatusCode is the upstream's HTTP status.
	StatusCode int
	// RetryAfter is the upstream's Retry-After header: seconds or an HTTP
	// date; "" when absent.
	RetryAfter string
	// Err is the underlying failure, kept for the seller's own logs; it
	// never reaches the buyer.
	Err error
}

func (e *Failure) Error() string {
	msg := "upstream HTTP " + strconv.Itoa(e.StatusCode)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Failure) Unwrap() error { return e.Err }

// NewFailure reads the status and Retry-After of resp.
func NewFailure(resp *http.Response) *Failure {
	return &Failure{StatusCode: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
}

// Default delay for an upstream 429 without a usable Retry-After.
const rateLimitDelay = 10 * time.Second

// Translate turns a seller's upstream failure into the AdCP error the
// buyer sees, without leaking anything about the upstream (no status text,
// hostnames or messages):
//   - an *adcperr.Error anywhere in the chain (an AdCP-conformant upstream)
//     is passed through unchanged, recovery, retry_after and details
//     included;
//   - a *Failure with status 429 is RATE_LIMITED, transient, with the
//     upstream's Retry-After (seconds or HTTP date, clamped to [1s, 1h]) or
//     10s;
//   - any other upstream failure (5xx, other statuses, timeouts, network
//     errors) is SERVICE_UNAVAILABLE, transient: the buyer did nothing wrong
//     and can only retry.
//
// now is used for HTTP-date Retry-After values; nil means time.Now.
func Translate(err error, now func() time.Time) *adcperr.Error {
	if err == nil {
		return nil
	}
	var ae *adcperr.Error
	if errors.As(err, &ae) {
		return ae
	}
	var he *Failure
	if errors.As(err, &he) {
		switch {
		case he.StatusCode == http.StatusTooManyRequests:
			if now == nil {
				now = time.Now
			}
			delay, ok := retry.ParseRetryAfter(he.RetryAfter, now())
			if !ok {
				delay = rateLimitDelay
			}
			return &adcperr.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", Recovery: registry.Transient, RetryAfter: delay}
		case he.StatusCode >= 500:
			return &adcperr.Error{Code: "SERVICE_UNAVAILABLE", Message: "Service temporarily unavailable", Recovery: registry.Transient}
		}
	}
	return &adcperr.Error{Code: "SERVICE_UNAVAILABLE", Message: "An internal error occurred", Recovery: registry.Transient}
}
