package sellerstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/storetest"
	"github.com/adcpgen/adcpgen/runtime/task"
)

func claimReq(key string) sellerstore.ClaimRequest {
	return sellerstore.ClaimRequest{IdempotencyKey: sellerstore.IdempotencyKey{Principal: "p", Tool: "create_media_buy", Key: key},
		Fingerprint: "fp", Lease: 10 * time.Second, Retention: 24 * time.Hour}
}

// Memory holds at most its capacity: records still in use refuse a new
// key with ErrFull and a retry_after until one lapses; what is past its
// use (a replay window ended an hour ago, an abandoned claim, an ended
// task a day old) is dropped on its own, so a seller under steady load
// never fills it.
func TestMemoryIsBounded(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewFakeClock(storetest.Start)
	m := sellerstore.NewMemory(clock)
	m.SetCapacity(3, 2)
	for i := range 3 {
		c, err := m.Claim(ctx, claimReq(fmt.Sprint("k", i)))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Complete(ctx, claimReq("").IdempotencyKey, c.Token, sellerstore.StoredResponse{}); err == nil {
			t.Fatal("completed another key")
		}
		if err := m.Complete(ctx, claimReq(fmt.Sprint("k", i)).IdempotencyKey, c.Token, sellerstore.StoredResponse{Body: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := m.Claim(ctx, claimReq("k3"))
	var full *sellerstore.OutageError
	if !errors.Is(err, sellerstore.ErrFull) || !errors.As(err, &full) || full.RetryAfter() < 24*time.Hour {
		t.Fatalf("a fourth key in a store of three: %v, want ErrFull with the wait for the first to lapse", err)
	}
	if c, err := m.Claim(ctx, claimReq("k0")); err != nil || c.Outcome != sellerstore.Replay {
		t.Fatalf("a replay in a full store: %+v %v", c, err)
	}
	clock.Advance(25*time.Hour + time.Minute) // the windows ended over an hour ago
	if _, err := m.Claim(ctx, claimReq("k3")); err != nil {
		t.Fatalf("after the records lapsed: %v", err)
	}

	// Steady load: 100 keys an hour for three days in a store of 3,000
	// (a day's keys plus an hour's grace is 2,500).
	m.SetCapacity(3000, 0)
	for h := range 72 {
		for i := range 100 {
			c, err := m.Claim(ctx, claimReq(fmt.Sprintf("load-%d-%d", h, i)))
			if err != nil {
				t.Fatalf("hour %d: %v", h, err)
			}
			if err := m.Complete(ctx, claimReq(fmt.Sprintf("load-%d-%d", h, i)).IdempotencyKey, c.Token, sellerstore.StoredResponse{Body: []byte(`{}`)}); err != nil {
				t.Fatal(err)
			}
		}
		clock.Advance(time.Hour)
	}

	// Tasks: the oldest ended one makes room; open ones are never dropped.
	for _, id := range []string{"a", "b", "c"} {
		if _, err := m.CreateTask(ctx, sellerstore.Task{ID: id, Principal: "p", Tool: "create_media_buy", Status: task.Completed}); err != nil {
			t.Fatalf("task %s: %v", id, err)
		}
		clock.Advance(time.Second)
	}
	if _, err := m.GetTask(ctx, "p", "a"); !errors.Is(err, sellerstore.ErrNotFound) {
		t.Fatalf("the oldest ended task stayed: %v", err)
	}
	for _, id := range []string{"d", "e"} {
		if _, err := m.CreateTask(ctx, sellerstore.Task{ID: id, Principal: "p", Tool: "create_media_buy", Status: task.Submitted}); err != nil {
			t.Fatalf("task %s: %v", id, err)
		}
	}
	if _, err := m.CreateTask(ctx, sellerstore.Task{ID: "f", Principal: "p", Tool: "create_media_buy", Status: task.Submitted}); !errors.Is(err, sellerstore.ErrFull) {
		t.Fatalf("a third open task in a store of two: %v", err)
	}
}
