package retry

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
)

// ParseRetryAfter reads an HTTP Retry-After value (RFC 9110 §10.2.3):
// delay-seconds, or an HTTP date taken relative to now. The delay is
// normalised as AdCP's retry_after is (adcperr.NormalizeRetryAfter: rounded
// up to a whole second, clamped to [1s, 1h]), so a date already past is 1s.
// ok is false for an empty, negative or unreadable value.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return adcperr.NormalizeRetryAfter(secs)
	}
	if t, err := http.ParseTime(v); err == nil {
		return adcperr.NormalizeRetryAfter(t.Sub(now).Seconds())
	}
	return 0, false
}
