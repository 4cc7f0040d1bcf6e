package storetest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// unitTests are the contract of sellerstore.Atomic: what every store's
// units do alike. (Whether a rollback undoes the writes is the store's own:
// pgstore's does, Memory's cannot.)
var unitTests = []storeTest{
	{"CommitKeepsWritesAndCompletionThenRunsCallbacks", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		at := atomicStore(t, s)
		req := request("p1", "k1", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		ctx, u := at.Begin(t.Context())
		var ran atomic.Int32
		sellerstore.AfterCommit(ctx, func() { ran.Add(1) })
		created := create(t, withCtx{s, ctx}, newTask("p1", "task-1", task.Submitted))
		sameTask(t, get(t, withCtx{s, ctx}, "p1", "task-1"), created) // the unit reads its own writes
		resp := sellerstore.StoredResponse{Body: body, Status: "submitted", TaskID: "task-1"}
		if err := s.Complete(ctx, req.IdempotencyKey, c.Token, resp); err != nil {
			t.Fatalf("Complete in the unit: %v", err)
		}
		if ran.Load() != 0 {
			t.Fatal("AfterCommit ran before the commit")
		}
		if err := u.Commit(t.Context()); err != nil {
			t.Fatalf("Commit: %v", err)
		}
		if ran.Load() != 1 {
			t.Fatalf("AfterCommit ran %d times, want once", ran.Load())
		}
		sameResponse(t, claim(t, s, req, sellerstore.Replay).Response, resp)
		sameTask(t, get(t, s, "p1", "task-1"), created)
	}},
	{"CompletionIsFencedByTheToken", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		at := atomicStore(t, s)
		req := request("p1", "k1", fpA)
		old := claim(t, s, req, sellerstore.Claimed)
		clock.Advance(lease)
		taken := claim(t, s, req, sellerstore.Claimed)
		ctx, u := at.Begin(t.Context())
		var ran atomic.Int32
		sellerstore.AfterCommit(ctx, func() { ran.Add(1) })
		wantErr(t, "the old owner's Complete in a unit", s.Complete(ctx, req.IdempotencyKey, old.Token, stored), sellerstore.ErrClaimLost)
		u.Rollback(t.Context())
		if ran.Load() != 0 {
			t.Fatal("AfterCommit ran for a unit rolled back")
		}
		complete(t, s, req, taken.Token, stored)
		sameResponse(t, claim(t, s, req, sellerstore.Replay).Response, stored)
	}},
	{"AfterTheUnitWritesGoToTheStore", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		at := atomicStore(t, s)
		ctx, u := at.Begin(t.Context())
		if err := u.Commit(t.Context()); err != nil { // a unit without writes commits
			t.Fatal(err)
		}
		ran := false
		sellerstore.AfterCommit(ctx, func() { ran = true })
		if !ran {
			t.Fatal("AfterCommit on an ended unit did not run at once")
		}
		created := create(t, withCtx{s, ctx}, newTask("p1", "task-1", task.Submitted))
		sameTask(t, get(t, s, "p1", "task-1"), created)
		ran = false
		sellerstore.AfterCommit(context.Background(), func() { ran = true })
		if !ran {
			t.Fatal("AfterCommit without a unit did not run at once")
		}
	}},
	{"ConcurrentWritesInOneUnit", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		at := atomicStore(t, s)
		ctx, u := at.Begin(t.Context())
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = s.CreateTask(ctx, newTask("p1", "task-"+string(rune('a'+i)), task.Submitted))
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("writer %d: %v", i, err)
			}
		}
		if err := u.Commit(t.Context()); err != nil {
			t.Fatal(err)
		}
		page, err := s.ListTasks(t.Context(), "p1", sellerstore.TaskQuery{})
		if err != nil || len(page.Tasks) != len(errs) {
			t.Fatalf("%d tasks after the commit (%v), want %d", len(page.Tasks), err, len(errs))
		}
	}},
}

func atomicStore(t *testing.T, s sellerstore.Store) sellerstore.Atomic {
	t.Helper()
	at, ok := s.(sellerstore.Atomic)
	if !ok {
		t.Skipf("%T is not a sellerstore.Atomic", s)
	}
	return at
}

// withCtx is a store whose task operations use ctx (the unit's), for the
// suite's helpers, which pass their own.
type withCtx struct {
	sellerstore.Store
	ctx context.Context
}

func (w withCtx) CreateTask(_ context.Context, t sellerstore.Task) (sellerstore.Task, error) {
	return w.Store.CreateTask(w.ctx, t)
}

func (w withCtx) GetTask(_ context.Context, principal, id string) (sellerstore.Task, error) {
	return w.Store.GetTask(w.ctx, principal, id)
}
