package retry_test

import (
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/retry"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"30", 30 * time.Second, true},
		{" 7 ", 7 * time.Second, true},
		{"0", time.Second, true},
		{"1.2", 2 * time.Second, true},
		{"999999", time.Hour, true},
		{"Wed, 01 Jan 2025 00:02:00 GMT", 2 * time.Minute, true},
		{"Wednesday, 01-Jan-25 00:00:30 GMT", 30 * time.Second, true}, // RFC 850, obsolete but allowed
		{"Wed Jan  1 00:00:10 2025", 10 * time.Second, true},          // asctime
		{"Tue, 31 Dec 2024 23:00:00 GMT", time.Second, true},          // already past
		{"Sat, 01 Jan 2028 00:00:00 GMT", time.Hour, true},
		{"", 0, false},
		{"-5", 0, false},
		{"soon", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
	} {
		got, ok := retry.ParseRetryAfter(c.in, now)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %s, %v; want %s, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
