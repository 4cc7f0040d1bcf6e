package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// trace is a delivery's trace context, which a claim hands back as it was.
const trace = "traceparent=00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01&tracestate=rojo%3D00f067aa0ba902b7"

func delivery(taskID string) sellerstore.Delivery {
	return sellerstore.Delivery{TaskID: taskID, Principal: "p1", Tool: "create_media_buy", Status: "completed",
		PushConfig: []byte(`{"url":"https://buyer.example/hook"}`), Body: body, Deadline: Start.Add(24 * time.Hour), Trace: trace}
}

func enqueue(t *testing.T, s sellerstore.Outbox, d sellerstore.Delivery) sellerstore.Delivery {
	t.Helper()
	got, err := s.Enqueue(t.Context(), d)
	if err != nil || got.ID == 0 {
		t.Fatalf("Enqueue(%s): %+v %v", d.TaskID, got, err)
	}
	return got
}

func claimDue(t *testing.T, s sellerstore.Outbox, limit int) []sellerstore.Delivery {
	t.Helper()
	got, err := s.ClaimDue(t.Context(), lease, limit)
	if err != nil {
		t.Fatalf("ClaimDue: %v", err)
	}
	return got
}

func deliveryTasks(ds []sellerstore.Delivery) string {
	out := ""
	for _, d := range ds {
		out += fmt.Sprintf("%s#%d ", d.TaskID, d.Attempts)
	}
	return out
}

// outboxTests are the rules of the webhook outbox.
var outboxTests = []storeTest{
	{"OneTaskInOrderRetriedThenSettled", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		a1 := enqueue(t, s, delivery("task-a"))
		a2 := enqueue(t, s, delivery("task-a"))
		b1 := enqueue(t, s, delivery("task-b"))
		if a1.CreatedAt != at(clock) || string(a1.Body) != string(body) {
			t.Fatalf("enqueued %+v", a1)
		}
		due := claimDue(t, s, 10)
		if len(due) != 2 || due[0].ID != a1.ID || due[1].ID != b1.ID || due[0].Token == "" || string(due[0].Body) != string(body) || due[0].Trace != trace {
			t.Fatalf("due %s, want task-a's first and task-b's (task-a's second waits for its first)", deliveryTasks(due))
		}
		if again := claimDue(t, s, 10); len(again) != 0 {
			t.Fatalf("claimed twice: %s", deliveryTasks(again))
		}
		if err := s.Settle(t.Context(), a1.ID, due[0].Token, sellerstore.Attempt{Delivered: true, Status: 200}); err != nil {
			t.Fatalf("Settle: %v", err)
		}
		wantErr(t, "settling twice", s.Settle(t.Context(), a1.ID, due[0].Token, sellerstore.Attempt{Delivered: true}), sellerstore.ErrClaimLost)
		next := claimDue(t, s, 10)
		if len(next) != 1 || next[0].ID != a2.ID {
			t.Fatalf("after task-a's first was delivered: %s", deliveryTasks(next))
		}
		if err := s.Settle(t.Context(), a2.ID, next[0].Token, sellerstore.Attempt{RetryAt: clock.Now().Add(time.Minute), Status: 503, Error: "unavailable"}); err != nil {
			t.Fatal(err)
		}
		if early := claimDue(t, s, 10); len(early) != 0 {
			t.Fatalf("claimed before its retry time: %s", deliveryTasks(early))
		}
		// task-a's retry time comes, and task-b's claim lapses (its replica
		// died mid-post): both are claimed again.
		clock.Advance(time.Minute)
		retry := claimDue(t, s, 10)
		if len(retry) != 2 || retry[0].Attempts+retry[1].Attempts != 1 {
			t.Fatalf("after the retry time and the lapsed claim: %s", deliveryTasks(retry))
		}
		wantErr(t, "the lapsed claim's settle", s.Settle(t.Context(), b1.ID, due[1].Token, sellerstore.Attempt{Delivered: true}), sellerstore.ErrClaimLost)
		for _, d := range retry {
			if err := s.Settle(t.Context(), d.ID, d.Token, sellerstore.Attempt{GiveUp: true, Status: 410}); err != nil {
				t.Fatal(err)
			}
		}
		clock.Advance(time.Hour)
		if rest := claimDue(t, s, 10); len(rest) != 0 {
			t.Fatalf("settled deliveries claimed: %s", deliveryTasks(rest))
		}
		n, err := s.Purge(t.Context(), clock.Now())
		if err != nil || n.Deliveries != 3 {
			t.Fatalf("Purge: %+v %v, want 3 deliveries", n, err)
		}
	}},
	{"EnqueueJoinsTheUnit", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		at := atomicStore(t, s)
		ctx, u := at.Begin(t.Context())
		if _, err := s.Enqueue(ctx, delivery("task-a")); err != nil {
			t.Fatal(err)
		}
		if err := u.Commit(t.Context()); err != nil {
			t.Fatal(err)
		}
		if due := claimDue(t, s, 10); len(due) != 1 {
			t.Fatalf("after the commit: %s", deliveryTasks(due))
		}
	}},
	{"InvalidDeliveries", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		for _, d := range []sellerstore.Delivery{{}, {TaskID: "t", Principal: "p"}, {TaskID: "t\x00", Principal: "p", Body: body, PushConfig: body}} {
			_, err := s.Enqueue(context.Background(), d)
			wantErr(t, fmt.Sprintf("Enqueue(%+v)", d), err, sellerstore.ErrInvalid)
		}
	}},
}

// sharedOutboxTests race two replicas' dispatchers.
var sharedOutboxTests = []sharedTest{
	{"ConcurrentDispatchersClaimEachOnce", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		for i := range 20 {
			enqueue(t, a, delivery(fmt.Sprintf("task-%02d", i)))
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		seen := map[int64]int{}
		for i := range 10 {
			wg.Go(func() {
				got, err := []sellerstore.Store{a, b}[i%2].ClaimDue(context.Background(), lease, 3)
				if err != nil {
					t.Errorf("ClaimDue: %v", err)
				}
				mu.Lock()
				for _, d := range got {
					seen[d.ID]++
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		for id, n := range seen {
			if n != 1 {
				t.Errorf("delivery %d claimed %d times", id, n)
			}
		}
		if len(seen) != 20 {
			t.Errorf("%d deliveries claimed, want 20", len(seen))
		}
	}},
}
