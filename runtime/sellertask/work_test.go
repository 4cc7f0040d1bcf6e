package sellertask_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/storetest"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// workReplica is a seller on store whose create_media_buy answers
// submitted; finish is the work that finishes a task (a buy, counted).
type workReplica struct {
	srv   *seller.Server
	tasks *sellertask.Manager
}

func newWorkReplica(t *testing.T, store sellerstore.Store, opts sellertask.Options) *workReplica {
	t.Helper()
	opts.Store = store
	r := &workReplica{tasks: sellertask.New(adcpt.Spec(), opts)}
	t.Cleanup(func() { _ = r.tasks.Close(context.Background()) })
	srv, err := seller.New(adcpt.Spec(), seller.Options{Tasks: r.tasks})
	if err != nil {
		t.Fatal(err)
	}
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		if _, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy); err != nil {
			return nil, err
		}
		return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
	})
	r.tasks.ServeStatusTools(srv)
	r.srv = srv
	return r
}

func (r *workReplica) start(t *testing.T) string {
	t.Helper()
	a := r.srv.Serve(context.Background(), "create_media_buy", &seller.Call{Principal: seller.Principal{ID: "buyer-a"},
		Arguments: []byte(`{"idempotency_key":"k-0123456789abcdef","packages":[{"product_id":"p","budget":5}]}`)})
	if a.Error != nil || a.Status != task.Submitted {
		t.Fatalf("start: %+v", a)
	}
	return a.TaskID
}

// buy is the work of a task on srv: a buy counted per task, then the
// task completed with it.
func buy(srv *seller.Server, id string, buys *sync.Map, n *atomic.Int64) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		h, _, err := seller.OpenTask(ctx, srv, adcpt.Tools.CreateMediaBuy, "buyer-a", id)
		if err != nil {
			return err
		}
		id := fmt.Sprintf("mb_%d", n.Add(1))
		c, _ := buys.LoadOrStore(h.ID(), new(atomic.Int64))
		c.(*atomic.Int64).Add(1)
		time.Sleep(2 * time.Millisecond) // long enough for the racers to meet
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: id})
		return h.Complete(ctx, &resp, "Approved.")
	}
}

// The race: the same task's work attempted by two replicas at
// once, many times over. WorkOnTask lets one through per task: one buy
// per task, the others told the work is busy or done.
func TestWorkOnTaskRunsOnce(t *testing.T) {
	store := sellerstore.NewMemory(nil)
	a, b := newWorkReplica(t, store, sellertask.Options{}), newWorkReplica(t, store, sellertask.Options{})
	var buys sync.Map
	var n atomic.Int64
	var wg sync.WaitGroup
	var unexpected atomic.Value
	const tasks = 30
	for range tasks {
		id := a.start(t)
		for i := range storetest.Concurrency / 5 {
			wg.Go(func() {
				srv := []*seller.Server{a.srv, b.srv}[i%2]
				err := seller.WorkOnTask(context.Background(), srv, "buyer-a", id, buy(srv, id, &buys, &n))
				if err != nil && !errors.Is(err, seller.ErrTaskBusy) && !errors.Is(err, seller.ErrTaskEnded) {
					unexpected.Store(err)
				}
			})
		}
	}
	wg.Wait()
	if err := unexpected.Load(); err != nil {
		t.Fatalf("WorkOnTask: %v", err)
	}
	count := 0
	buys.Range(func(id, c any) bool {
		count++
		if got := c.(*atomic.Int64).Load(); got != 1 {
			t.Errorf("task %s: %d buys", id, got)
		}
		return true
	})
	if count != tasks || n.Load() != tasks {
		t.Fatalf("%d tasks bought, %d buys; want %d and %d", count, n.Load(), tasks, tasks)
	}
}

// A worker that died (its claim never renewed, here taken in the store
// directly) holds the task until its lease lapses; then another worker
// takes it over, and the dead one's late report is fenced out.
func TestDeadWorkerTakenOver(t *testing.T) {
	clock := storetest.NewFakeClock(storetest.Start)
	store := sellerstore.NewMemory(clock)
	r := newWorkReplica(t, store, sellertask.Options{Lease: time.Minute})
	id := r.start(t)
	dead, err := store.ClaimTask(context.Background(), "buyer-a", id, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var buys sync.Map
	var n atomic.Int64
	err = seller.WorkOnTask(context.Background(), r.srv, "buyer-a", id, buy(r.srv, id, &buys, &n))
	if !errors.Is(err, seller.ErrTaskBusy) {
		t.Fatalf("while the dead worker's lease is live: %v, want ErrTaskBusy", err)
	}
	clock.Advance(time.Minute)
	if err := seller.WorkOnTask(context.Background(), r.srv, "buyer-a", id, buy(r.srv, id, &buys, &n)); err != nil {
		t.Fatalf("the takeover: %v", err)
	}
	_, err = store.UpdateTask(context.Background(), "buyer-a", id, sellerstore.TaskUpdate{Status: task.Failed, Result: []byte(`{}`), Token: dead.Token})
	if !errors.Is(err, sellerstore.ErrTaskFinal) && !errors.Is(err, sellerstore.ErrClaimLost) {
		t.Fatalf("the dead worker's late report: %v", err)
	}
	if n.Load() != 1 {
		t.Fatalf("%d buys", n.Load())
	}
}

// With Options.Work the Manager does every task's work in the
// background, once, without a buyer's poll: as soon as the call that
// started it is recorded.
func TestWorkOptionFinishesTasks(t *testing.T) {
	store := sellerstore.NewMemory(nil)
	var buys sync.Map
	var n atomic.Int64
	var srvs [2]*seller.Server
	var ready sync.WaitGroup
	ready.Add(1)
	replica := func(i int) *workReplica {
		return newWorkReplica(t, store, sellertask.Options{Lease: 2 * time.Second, Work: func(ctx context.Context, principal, id string) error {
			ready.Wait()
			return seller.WorkOnTask(ctx, srvs[i], principal, id, buy(srvs[i], id, &buys, &n))
		}})
	}
	a, b := replica(0), replica(1)
	srvs = [2]*seller.Server{a.srv, b.srv}
	ready.Done()
	ids := make([]string, 20)
	for i := range ids {
		ids[i] = []*workReplica{a, b}[i%2].start(t)
	}
	deadline := time.Now().Add(time.Minute)
	for _, id := range ids {
		for {
			snap, err := a.tasks.Get(context.Background(), "buyer-a", id)
			if err == nil && snap.Status == task.Completed {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("task %s not completed by the background work: %v %v", id, snap.Status, err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if n.Load() != int64(len(ids)) {
		t.Fatalf("%d buys for %d tasks", n.Load(), len(ids))
	}
}
