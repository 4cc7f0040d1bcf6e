package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// claimTests are the rules of claims on tasks' work.
var claimTests = []storeTest{
	{"OneWorkerAtATimeAndTakeover", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		ctx := t.Context()
		created := create(t, s, newTask("p1", "task-1", task.Submitted))
		first, err := s.ClaimTask(ctx, "p1", "task-1", lease)
		if err != nil || first.Token == "" || !first.Until.Equal(at(clock).Add(lease)) {
			t.Fatalf("ClaimTask: %+v %v", first, err)
		}
		sameTask(t, first.Task, created)
		_, err = s.ClaimTask(ctx, "p1", "task-1", lease)
		wantErr(t, "a second claim while the first is live", err, sellerstore.ErrTaskClaimed)
		clock.Advance(lease / 2)
		if err := s.RenewTask(ctx, "p1", "task-1", first.Token, lease); err != nil {
			t.Fatalf("RenewTask: %v", err)
		}
		clock.Advance(lease / 2)
		_, err = s.ClaimTask(ctx, "p1", "task-1", lease)
		wantErr(t, "a claim while the renewed one is live", err, sellerstore.ErrTaskClaimed)
		clock.Advance(lease) // the worker died
		second, err := s.ClaimTask(ctx, "p1", "task-1", lease)
		if err != nil || second.Token == first.Token {
			t.Fatalf("takeover: %+v %v", second, err)
		}
		wantErr(t, "the dead worker's renewal", s.RenewTask(ctx, "p1", "task-1", first.Token, lease), sellerstore.ErrClaimLost)
		_, err = s.UpdateTask(ctx, "p1", "task-1", sellerstore.TaskUpdate{Status: task.Completed, Result: []byte(`{"old":true}`), Token: first.Token})
		wantErr(t, "the dead worker's completion", err, sellerstore.ErrClaimLost)
		update(t, s, "p1", "task-1", sellerstore.TaskUpdate{Status: task.Working, Progress: []byte(`{}`), Token: second.Token})
		done := update(t, s, "p1", "task-1", sellerstore.TaskUpdate{Status: task.Completed, Result: []byte(`{"new":true}`), Token: second.Token})
		if string(done.Result) != `{"new":true}` {
			t.Fatalf("result %s", done.Result)
		}
		_, err = s.ClaimTask(ctx, "p1", "task-1", lease)
		wantErr(t, "claiming a final task", err, sellerstore.ErrTaskFinal)
		wantErr(t, "renewing after the task ended", s.RenewTask(ctx, "p1", "task-1", second.Token, lease), sellerstore.ErrClaimLost)
	}},
	{"ReleaseAndUnfencedUpdates", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		ctx := t.Context()
		create(t, s, newTask("p1", "task-1", task.Submitted))
		c, err := s.ClaimTask(ctx, "p1", "task-1", lease)
		if err != nil {
			t.Fatal(err)
		}
		// An update without a token (a seller that does not claim) still
		// goes through; the claim stays.
		update(t, s, "p1", "task-1", sellerstore.TaskUpdate{Status: task.Working})
		if err := s.ReleaseTask(ctx, "p1", "task-1", c.Token); err != nil {
			t.Fatalf("ReleaseTask: %v", err)
		}
		wantErr(t, "a second release", s.ReleaseTask(ctx, "p1", "task-1", c.Token), sellerstore.ErrClaimLost)
		if _, err := s.ClaimTask(ctx, "p1", "task-1", lease); err != nil {
			t.Fatalf("a claim after the release: %v", err)
		}
		_, err = s.ClaimTask(ctx, "p2", "task-1", lease)
		_, errMissing := s.ClaimTask(ctx, "p2", "task-9", lease)
		notYours(t, "ClaimTask of another principal's task", err, errMissing, "task-1", "task-9")
		wantErr(t, "a claim's token for another principal", s.RenewTask(ctx, "p2", "task-1", c.Token, lease), sellerstore.ErrClaimLost)
	}},
	{"ClaimIdleTakesOpenUnheldTasksOnce", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		ctx := t.Context()
		create(t, s, newTask("p1", "a", task.Submitted))
		clock.Advance(time.Millisecond)
		create(t, s, newTask("p2", "b", task.Working))
		clock.Advance(time.Millisecond)
		create(t, s, newTask("p1", "c", task.Submitted))
		create(t, s, newTask("p1", "done", task.Completed))
		if _, err := s.ClaimTask(ctx, "p1", "c", lease); err != nil {
			t.Fatal(err)
		}
		got, err := s.ClaimIdle(ctx, lease, 10)
		if err != nil || len(got) != 2 || got[0].Task.ID != "a" || got[1].Task.ID != "b" || got[0].Token == "" || got[0].Token == got[1].Token {
			t.Fatalf("ClaimIdle: %v %v, want a then b", claimIDs(got), err)
		}
		if again, err := s.ClaimIdle(ctx, lease, 10); err != nil || len(again) != 0 {
			t.Fatalf("ClaimIdle again: %v %v, want none", claimIDs(again), err)
		}
		update(t, s, "p1", "a", sellerstore.TaskUpdate{Status: task.Completed, Result: []byte(`{}`), Token: got[0].Token})
		clock.Advance(lease)
		later, err := s.ClaimIdle(ctx, lease, 1)
		if err != nil || len(later) != 1 || later[0].Task.ID != "b" {
			t.Fatalf("ClaimIdle after the leases lapsed, limit 1: %v %v, want b", claimIDs(later), err)
		}
	}},
}

func claimIDs(cs []sellerstore.TaskClaim) []string {
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.Task.ID)
	}
	return ids
}

// sharedClaimTests race claims across two handles on one backend.
var sharedClaimTests = []sharedTest{
	{"ConcurrentTaskClaimsOneWinner", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		create(t, a, newTask("p1", "task-1", task.Submitted))
		var wg sync.WaitGroup
		won := make([]bool, Concurrency)
		errs := make([]error, Concurrency)
		for i := range Concurrency {
			wg.Go(func() {
				s := []sellerstore.Store{a, b}[i%2]
				_, errs[i] = s.ClaimTask(context.Background(), "p1", "task-1", lease)
				won[i] = errs[i] == nil
			})
		}
		wg.Wait()
		n := 0
		for i, w := range won {
			if w {
				n++
			} else if !errors.Is(errs[i], sellerstore.ErrTaskClaimed) {
				t.Fatalf("caller %d: %v", i, errs[i])
			}
		}
		if n != 1 {
			t.Fatalf("%d of %d concurrent claims won, want 1", n, Concurrency)
		}
	}},
	{"ConcurrentSweepsTakeEachTaskOnce", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		for i := range 20 {
			create(t, a, newTask("p1", fmt.Sprintf("task-%02d", i), task.Submitted))
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		seen := map[string]int{}
		for i := range 10 {
			wg.Go(func() {
				got, err := []sellerstore.Store{a, b}[i%2].ClaimIdle(context.Background(), lease, 3)
				if err != nil {
					t.Errorf("ClaimIdle: %v", err)
				}
				mu.Lock()
				for _, c := range got {
					seen[c.Task.ID]++
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		for id, n := range seen {
			if n != 1 {
				t.Errorf("task %s claimed %d times by concurrent sweeps", id, n)
			}
		}
		if len(seen) != 20 {
			t.Errorf("%d tasks claimed, want 20", len(seen))
		}
	}},
}
