package sellertask_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Close cancels a delivery the receiver never answers, returns once its
// goroutine has ended, and starts no delivery afterwards; Wait leaves no
// goroutine behind when its ctx ends first.
func TestCloseCancelsDeliveries(t *testing.T) {
	// Managers of other tests (run before this one with -count) may still
	// be running: only goroutines beyond theirs count.
	waiting, running := managerGoroutines("(*Manager).Wait"), managerGoroutines("sellertask.(*Manager)")
	var posts atomic.Int32
	arrived, release := make(chan struct{}, 4), make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		arrived <- struct{}{}
		select { // until the sender gives up, or the test ends
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) })
	b, tasks, _ := syncSeller(t, loopbackSender())
	call := func(key string) {
		t.Helper()
		args := `{"idempotency_key":"` + key + `","packages":[{"product_id":"ctv","budget":5000}],` +
			`"push_notification_config":{"url":"` + hang.URL + `/hooks","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + secret + `"}}}`
		if o := b.Call(t.Context(), "create_media_buy", args); o.Err != nil {
			t.Fatalf("create_media_buy: %+v", o.Err)
		}
	}
	call("0b6f2d4e-8a1c-4e3b-9d7f-2c5a8e1b4d6f")
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the webhook never arrived")
	}
	for range 5 {
		ctx, cancel := context.WithTimeout(t.Context(), time.Millisecond)
		err := tasks.Wait(ctx)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Wait with a delivery hanging: %v", err)
		}
	}
	if n := managerGoroutines("(*Manager).Wait") - waiting; n > 0 {
		t.Fatalf("%d goroutines left by Wait", n)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := tasks.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close with a delivery hanging: %v", err)
	}
	if n := managerGoroutines("sellertask.(*Manager)") - running; n > 0 {
		t.Fatalf("%d delivery goroutines left after Close", n)
	}
	call("3c8e1a5f-7b2d-4f6a-8e9c-1d4b7a2e5c8f") // recorded, not posted
	if err := tasks.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := posts.Load(); n != 1 {
		t.Fatalf("%d posts, want 1", n)
	}
}

// managerGoroutines counts the goroutines running code whose name holds fn.
func managerGoroutines(fn string) int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "runtime/sellertask."+strings.TrimPrefix(fn, "sellertask.")) {
			n++
		}
	}
	return n
}
