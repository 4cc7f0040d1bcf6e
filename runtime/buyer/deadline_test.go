package buyer_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// A seller that never answers, and a task that never ends: the caller's
// deadline wins, and once the seller and the session are closed no
// goroutine is left behind (run with -race too).
func TestSellerNeverAnswers(t *testing.T) {
	for _, f := range framings {
		before := runtime.NumGoroutine()
		t.Run(string(f), func(t *testing.T) {
			r := newRig(t, f, scripted(map[string][]answer{
				"get_things":      {{hang: true}},
				"create_thing":    {{state: task.Submitted, payload: `{"status":"submitted","task_id":"slow"}`}},
				"get_task_status": {{payload: `{"task_id":"slow","status":"working"}`}},
			}))
			ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
			defer cancel()
			start := time.Now()
			if _, err := buyer.Call(ctx, r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{}); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("hanging call: %v", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the call outlived its deadline by %s", d)
			}
			// Waiting on a task that never ends: the deadline wins too.
			ctx, cancel = context.WithTimeout(t.Context(), 150*time.Millisecond)
			defer cancel()
			if _, err := buyer.Call(ctx, r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "x"}, buyer.WaitForCompletion()); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("endless task: %v", err)
			}
		})
		if n := settle(before); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("%s: %d goroutines before, %d after:\n%s", f, before, n, buf[:runtime.Stack(buf, true)])
		}
	}
}
