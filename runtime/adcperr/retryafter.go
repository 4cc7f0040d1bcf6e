package adcperr

import (
	"math"
	"time"
)

// Bounds of a usable retry_after.
const (
	MinRetryAfter = time.Second
	MaxRetryAfter = time.Hour
)

// NormalizeRetryAfter turns a `retry_after` number of seconds into the delay
// a buyer waits: non-finite values are absent (ok false); others are rounded
// up to a whole second, then clamped to [1s, 1h].
func NormalizeRetryAfter(seconds float64) (d time.Duration, ok bool) {
	if math.IsNaN(seconds) || math.IsInf(seconds, 0) {
		return 0, false
	}
	s := math.Ceil(seconds)
	switch {
	case s < 1:
		s = 1
	case s > 3600:
		s = 3600
	}
	return time.Duration(s) * time.Second, true
}
