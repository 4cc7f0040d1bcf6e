package main

import (
	"strings"
	"testing"
	"time"
)

// TestStartClock: -clock moves a sandbox's clock to the instant given and
// lets it run; a production seller keeps the real time.
func TestStartClock(t *testing.T) {
	now, err := startClock("", false)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(now()).Abs() > time.Minute {
		t.Fatalf(`startClock(""): reads %v, %v`, now(), err)
	}
	now, err = startClock("2026-03-01T00:00:00Z", true)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	if d := now().Sub(at); d < 0 || d > time.Minute {
		t.Errorf("the sandbox clock reads %s, want about %s", now(), at)
	}
	for _, tc := range []struct{ at, want string }{
		{"2026-03-01T00:00:00Z", "only with -sandbox"},
		{"yesterday", "only with -sandbox"},
	} {
		if _, err := startClock(tc.at, false); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("startClock(%q, false) = %v, want an error saying %q", tc.at, err, tc.want)
		}
	}
	if _, err := startClock("yesterday", true); err == nil || !strings.Contains(err.Error(), "-clock") {
		t.Errorf(`startClock("yesterday", true) = %v, want an error naming -clock`, err)
	}
}
