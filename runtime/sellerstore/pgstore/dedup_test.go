package pgstore_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/storetest"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// hookSecret is the buyers' HMAC secret in the webhook tests.
const hookSecret = "7f3e9b2c4d5a6e8f0a1b2c3d4e5f6a7b8c9d0e1f"

// A buyer's webhook receivers on two replicas (and a third, started
// later) share their dedup state in PostgreSQL: a redelivery to another
// replica, or after a restart, is answered 200 without being handled
// again; a delivery being handled on one is answered 503 on the other,
// until the first receiver's claim lapses (it died); the key reused for
// another payload is a 409; the binding lasts the dedup retention, and
// Purge deletes it after.
func TestDedupAcrossReceivers(t *testing.T) {
	clock := storetest.NewFakeClock(time.Now())
	store := freshStore(t, pool(t), clock)
	h, err := webhook.NewHMAC([]byte(hookSecret))
	if err != nil {
		t.Fatal(err)
	}
	var handled atomic.Int32
	gate := make(chan struct{})
	close(gate)
	var hold atomic.Pointer[chan struct{}]
	hold.Store(&gate)
	receiver := func() http.Handler {
		rc := webhook.NewReceiver(adcpt.Spec(), webhook.ReceiverOptions{HMAC: h, Dedup: store.Dedup(), Rejected: func(_ *http.Request, s int, err error) { t.Logf("refused %d: %v", s, err) }})
		rc.HandleOther(func(ctx context.Context, n *webhook.Notification) error {
			handled.Add(1)
			<-*hold.Load()
			return nil
		})
		return rc
	}
	a, b := receiver(), receiver()
	body := func(key, message string) []byte {
		out, err := webhook.MCPPayload{IdempotencyKey: key, TaskID: "task_1", TaskType: "create_media_buy", Status: task.Working,
			Message: message, Timestamp: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	post := func(to http.Handler, b []byte) int {
		ts := time.Now().Unix()
		sig, err := h.Sign(ts, b)
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(b))
		req.Header.Set(webhook.TimestampHeader, strconv.FormatInt(ts, 10))
		req.Header.Set(webhook.SignatureHeader, sig)
		rec := httptest.NewRecorder()
		to.ServeHTTP(rec, req)
		return rec.Code
	}
	const key = "whk_0123456789abcdefghij"
	first := body(key, "Checking.")
	if code := post(a, first); code != 200 || handled.Load() != 1 {
		t.Fatalf("first delivery: %d, handled %d", code, handled.Load())
	}
	if code := post(b, first); code != 200 || handled.Load() != 1 {
		t.Fatalf("the redelivery to the other replica: %d, handled %d", code, handled.Load())
	}
	if code := post(receiver(), first); code != 200 || handled.Load() != 1 {
		t.Fatalf("the redelivery after a restart: %d, handled %d", code, handled.Load())
	}
	if code := post(b, body(key, "Changed.")); code != http.StatusConflict {
		t.Fatalf("the key reused for another payload: %d", code)
	}

	// One being handled on a; a redelivery to b is told to retry.
	blocked := make(chan struct{})
	hold.Store(&blocked)
	second := body("whk_second0123456789abcd", "Working.")
	done := make(chan int)
	go func() { done <- post(a, second) }()
	for handled.Load() != 2 {
		time.Sleep(5 * time.Millisecond)
	}
	if code := post(b, second); code != http.StatusServiceUnavailable {
		t.Fatalf("a redelivery while the first is handled: %d", code)
	}
	// a dies (its claim is never acknowledged): once the claim lapses, b
	// takes the publication over.
	clock.Advance(2 * time.Minute)
	hold.Store(&gate)
	if code := post(b, second); code != 200 || handled.Load() != 3 {
		t.Fatalf("the redelivery after the first receiver's claim lapsed: %d, handled %d", code, handled.Load())
	}
	close(blocked)
	<-done // a's late handler finished; its acknowledgement is fenced out

	clock.Advance(25 * time.Hour) // past the retention
	n, err := store.Purge(t.Context(), clock.Now())
	if err != nil || n.DeliveryKeys != 2 {
		t.Fatalf("Purge: %+v %v, want 2 delivery keys", n, err)
	}
}
