package sellerstore_test

import (
	"errors"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"slices"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
)

func TestCanTransition(t *testing.T) {
	interim := []task.Status{task.Submitted, task.Working, task.InputRequired, task.AuthRequired}
	final := []task.Status{task.Completed, task.Failed, task.Canceled, task.Rejected}
	for _, from := range append(interim, final...) {
		for _, to := range append(interim, final...) {
			if got, want := storekit.CanTransition(from, to), !from.Final(); got != want {
				t.Errorf("CanTransition(%s, %s) = %v, want %v", from, to, got, want)
			}
		}
		for _, to := range []task.Status{"unknown", "", "Completed"} {
			if storekit.CanTransition(from, to) || storekit.CanTransition(to, from) {
				t.Errorf("CanTransition accepts %q with %s", to, from)
			}
		}
	}
	if got := storekit.StorableStatuses(); !slices.Equal(got, append(interim, final...)) {
		t.Errorf("StorableStatuses() = %v, want the interim then the final statuses", got)
	}
	for _, s := range final {
		if !s.Final() {
			t.Errorf("%s is not final", s)
		}
	}
	for _, s := range interim {
		if s.Final() {
			t.Errorf("%s is final", s)
		}
	}
}

func TestTaskCursorRoundTrip(t *testing.T) {
	c := sellerstore.TaskCursor{CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC), ID: "id|with|bars"}
	got, err := sellerstore.ParseTaskCursor(c.String())
	if err != nil || !got.CreatedAt.Equal(c.CreatedAt) || got.ID != c.ID {
		t.Fatalf("ParseTaskCursor(%s) = %+v, %v, want %+v", c, got, err, c)
	}
	for _, bad := range []string{"", "%%%", "MTIz", "YWJjfGlk"} { // "123" (no id), "abc|id"
		if _, err := sellerstore.ParseTaskCursor(bad); !errors.Is(err, sellerstore.ErrInvalid) {
			t.Errorf("ParseTaskCursor(%q) = %v, want ErrInvalid", bad, err)
		}
	}
}

func TestOutcomeString(t *testing.T) {
	for o, want := range map[sellerstore.Outcome]string{
		sellerstore.Claimed: "claimed", sellerstore.Replay: "replay", sellerstore.Conflict: "conflict",
		sellerstore.InFlight: "in-flight", sellerstore.Expired: "expired", 0: "Outcome(0)", 9: "Outcome(9)",
	} {
		if got := o.String(); got != want {
			t.Errorf("Outcome(%d).String() = %q, want %q", int(o), got, want)
		}
	}
}
