package pgstore_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/pgtest"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// faultCluster is a PostgreSQL cluster of the test's own (the faults stop
// and restart it) with the store migrated and a table of the seller's
// own, test_buys, and a pool on it for each of n replicas.
func faultCluster(t *testing.T, n int) (*pgtest.Cluster, []*pgstore.Store, *pgxpool.Pool) {
	t.Helper()
	c := pgtest.ForTest(t)
	var stores []*pgstore.Store
	var first *pgxpool.Pool
	for i := range n {
		cfg, err := pgxpool.ParseConfig(c.DSN())
		if err != nil {
			t.Fatal(err)
		}
		cfg.MaxConns = 8
		p, err := pgxpool.NewWithConfig(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		s := pgstore.New(p, nil)
		if i == 0 {
			first = p
			if err := s.Migrate(t.Context()); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Exec(t.Context(), `CREATE TABLE test_buys (idempotency_key text NOT NULL, media_buy_id text NOT NULL, task_id text)`); err != nil {
				t.Fatal(err)
			}
		}
		stores = append(stores, s)
	}
	return c, stores, first
}

// bookingReplica is a seller process on store: the idempotency layer, the
// task manager, and a create_media_buy that books its buy in test_buys
// through InTx, in the call's unit of work, and answers submitted (a task
// started in the same unit) for a po_number "async".
func bookingReplica(t *testing.T, store *pgstore.Store, opts idempotency.Options) *seller.Server {
	t.Helper()
	spec := adcpt.Spec()
	layer := idempotency.New(spec, store, opts)
	tasks := sellertask.New(spec, sellertask.Options{Store: store})
	srv, err := seller.New(spec, seller.Options{Middleware: []seller.Middleware{layer.Middleware()}, Tasks: tasks})
	if err != nil {
		t.Fatal(err)
	}
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		id := "mb_" + rand.Text()[:12]
		taskID := ""
		if req.PoNumber != nil && *req.PoNumber == "async" {
			h, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy)
			if err != nil {
				return nil, err
			}
			taskID = h.ID()
		}
		err := store.InTx(ctx, func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO test_buys VALUES ($1, $2, nullif($3, ''))`, req.IdempotencyKey, id, taskID)
			return err
		})
		if err != nil {
			return nil, err
		}
		if taskID != "" {
			return &adcpt.CreateMediaBuyResult{Status: task.Submitted, TaskID: taskID, Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
		}
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: id})
		return &adcpt.CreateMediaBuyResult{Response: &resp}, nil
	})
	tasks.ServeStatusTools(srv)
	t.Cleanup(func() { _ = tasks.Close(context.Background()) })
	return srv
}

// killLease is the lease of the killed replicas' claims: how soon the
// survivors take their work over.
const killLease = 2 * time.Second

// book records a buy for key (and task) in the call's unit of work.
func book(ctx context.Context, store *pgstore.Store, key, taskID string) (string, error) {
	id := "mb_" + rand.Text()[:12]
	return id, store.InTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO test_buys VALUES ($1, $2, nullif($3, ''))`, key, id, taskID)
		return err
	})
}

// killableReplica is a seller on store: create_media_buy books a buy (sync)
// or starts a task (po_number "async"); with work, the Manager does each
// task's work in the background, booking the buy and completing the task;
// hold, when set, is called at the point a killed replica dies.
func killableReplica(store *pgstore.Store, work bool, hold func(ctx context.Context, id string)) (*seller.Server, *sellertask.Manager, error) {
	return webhookReplica(store, work, hold, nil)
}

// webhookReplica is killableReplica posting webhooks with sender (nil:
// none), synchronous results included (NotifySyncResults).
func webhookReplica(store *pgstore.Store, work bool, hold func(ctx context.Context, id string), sender *webhook.Sender) (*seller.Server, *sellertask.Manager, error) {
	spec := adcpt.Spec()
	layer := idempotency.New(spec, store, idempotency.Options{Lease: killLease})
	var srv *seller.Server
	opts := sellertask.Options{Store: store, Lease: killLease, Sender: sender}
	if work {
		opts.Work = func(ctx context.Context, principal, id string) error {
			return seller.WorkOnTask(ctx, srv, principal, id, buyTask(srv, store, principal, id, hold))
		}
	}
	tasks := sellertask.New(spec, opts)
	srv, err := seller.New(spec, seller.Options{Middleware: []seller.Middleware{layer.Middleware(), tasks.NotifySyncResults()}, Tasks: tasks})
	if err != nil {
		return nil, nil, err
	}
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		if req.PoNumber != nil && *req.PoNumber == "async" {
			if _, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy); err != nil {
				return nil, err
			}
			return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
		}
		mb, err := book(ctx, store, req.IdempotencyKey, "")
		if err != nil {
			return nil, err
		}
		if hold != nil {
			hold(ctx, req.IdempotencyKey)
		}
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: mb})
		return &adcpt.CreateMediaBuyResult{Response: &resp}, nil
	})
	tasks.ServeStatusTools(srv)
	return srv, tasks, nil
}

// buyTask is a task's work: book its buy, then complete it.
func buyTask(srv *seller.Server, store *pgstore.Store, principal, id string, hold func(ctx context.Context, id string)) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		h, req, err := seller.OpenTask(ctx, srv, adcpt.Tools.CreateMediaBuy, principal, id)
		if err != nil {
			return err
		}
		mb, err := book(ctx, store, req.IdempotencyKey, id)
		if err != nil {
			return err
		}
		if hold != nil {
			hold(ctx, id)
		}
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: mb})
		return h.Complete(ctx, &resp, "Approved.")
	}
}

// loadResult is what one key got in the end.
type loadResult struct {
	key, mediaBuyID, taskID string
	calls                   int
}

// buyUntilAnswered sends one create_media_buy key to the replicas in
// turn until a success, following retry_after (capped, for the test's
// pace); every error on the way must be transient and paced.
func buyUntilAnswered(t *testing.T, replicas []*seller.Server, key string, async bool, transient *atomic.Int64) loadResult {
	po := ""
	if async {
		po = `"po_number":"async",`
	}
	args := `{"idempotency_key":"` + key + `",` + po + `"packages":[{"product_id":"ctv","budget":5000}]}`
	res := loadResult{key: key}
	deadline := time.Now().Add(2 * time.Minute)
	for i := 0; time.Now().Before(deadline); i++ {
		res.calls++
		a := replicas[i%len(replicas)].Serve(context.Background(), "create_media_buy", &seller.Call{
			Arguments: json.RawMessage(args), Principal: seller.Principal{ID: "buyer-a"}, Transport: seller.TransportMCP})
		if a.Error == nil {
			var v struct {
				MediaBuyID string `json:"media_buy_id"`
			}
			_ = json.Unmarshal(a.Body, &v)
			res.mediaBuyID, res.taskID = v.MediaBuyID, a.TaskID
			return res
		}
		transient.Add(1)
		e := a.Error
		if e.Recovery != "transient" || e.RetryAfter < time.Second {
			t.Errorf("key %s: a non-transient or unpaced error during the fault: %+v", key, e)
			return res
		}
		time.Sleep(min(e.RetryAfter, 300*time.Millisecond))
	}
	t.Errorf("key %s: no answer within 2 minutes", key)
	return res
}

// PostgreSQL restarted (fast: every session cut) and then stopped for
// seconds, under a load of buyers on two replicas, each key retried until
// answered: no key is ever booked twice, every success the buyers got is
// durable (its buy booked, its record completed, its task there), no
// task exists whose call was not answered with it, and every retry replays
// the first answer. While the database is away buyers get transient
// errors paced with retry_after.
func TestRestartUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts a PostgreSQL cluster under load")
	}
	cluster, stores, db := faultCluster(t, 2)
	opts := idempotency.Options{Lease: 3 * time.Second, CompleteWait: 2 * time.Second}
	replicas := []*seller.Server{bookingReplica(t, stores[0], opts), bookingReplica(t, stores[1], opts)}

	var (
		stop      atomic.Bool
		transient atomic.Int64
		mu        sync.Mutex
		results   []loadResult
		wg        sync.WaitGroup
	)
	for w := range 12 {
		wg.Go(func() {
			for n := 0; !stop.Load(); n++ {
				key := fmt.Sprintf("w%02d-%04d-%s", w, n, rand.Text()[:8])
				r := buyUntilAnswered(t, replicas, key, n%4 == 3, &transient)
				mu.Lock()
				results = append(results, r)
				mu.Unlock()
			}
		})
	}
	answered := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(results)
	}
	waitFor(t, "load before the faults", func() bool { return answered() >= 50 })
	if err := cluster.Restart("fast"); err != nil {
		t.Fatal(err)
	}
	before := answered()
	waitFor(t, "load after the restart", func() bool { return answered() >= before+50 })
	if err := cluster.Stop("fast"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // the outage itself, not a synchronisation
	if err := cluster.Start(); err != nil {
		t.Fatal(err)
	}
	before = answered()
	waitFor(t, "load after the outage", func() bool { return answered() >= before+50 })
	stop.Store(true)
	wg.Wait()

	// The books: one buy per key, the answered one.
	rows, err := db.Query(t.Context(), `SELECT idempotency_key, count(*), min(media_buy_id), min(coalesce(task_id, '')) FROM test_buys GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	type booked struct {
		n      int
		id, tk string
	}
	books := map[string]booked{}
	for rows.Next() {
		var k string
		var b booked
		if err := rows.Scan(&k, &b.n, &b.id, &b.tk); err != nil {
			t.Fatal(err)
		}
		books[k] = b
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	duplicates, lost, retried := 0, 0, 0
	for _, r := range results {
		if r.calls > 1 {
			retried++
		}
		b := books[r.key]
		switch {
		case b.n > 1:
			duplicates++
			t.Errorf("key %s booked %d times", r.key, b.n)
		case b.n == 0 || (r.taskID == "" && b.id != r.mediaBuyID) || b.tk != r.taskID:
			lost++
			t.Errorf("key %s answered %s/%s, booked %+v", r.key, r.mediaBuyID, r.taskID, b)
		}
	}
	var orphans int
	if err := db.QueryRow(t.Context(), `SELECT count(*) FROM adcp_tasks t WHERE NOT EXISTS (SELECT 1 FROM test_buys b WHERE b.task_id = t.id)`).Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if orphans > 0 {
		t.Errorf("%d tasks exist whose call was never answered with them", orphans)
	}
	for _, r := range results[:min(len(results), 40)] {
		again := buyUntilAnswered(t, replicas, r.key, r.taskID != "", &transient)
		if again.mediaBuyID != r.mediaBuyID || again.taskID != r.taskID {
			t.Errorf("key %s replayed %s/%s, first answered %s/%s", r.key, again.mediaBuyID, again.taskID, r.mediaBuyID, r.taskID)
		}
	}
	t.Logf("%d keys answered (%d after retries), %d transient errors on the way; %d keys booked twice, %d answers not durable, %d orphaned tasks",
		len(results), retried, transient.Load(), duplicates, lost, orphans)
	if transient.Load() == 0 {
		t.Error("no buyer met the outage: the faults were not under load")
	}
}

// mcpCall posts a tools/call to a stateless MCP endpoint; it returns the
// result's bytes, or an error when the connection broke.
func mcpCall(url, tool, args string) ([]byte, error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// waitFor polls cond until it holds, failing after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// While the database is down every call is a transient error whose
// retry_after grows with the outage (the store's backoff), and the first
// call after it is back succeeds.
func TestOutagePacesBuyers(t *testing.T) {
	cluster, stores, _ := faultCluster(t, 1)
	srv := bookingReplica(t, stores[0], idempotency.Options{})
	call := func(key string) *seller.Answer {
		return srv.Serve(context.Background(), "create_media_buy", &seller.Call{Principal: seller.Principal{ID: "buyer-a"}, Transport: seller.TransportMCP,
			Arguments: json.RawMessage(`{"idempotency_key":"` + key + `","packages":[{"product_id":"ctv","budget":5}]}`)})
	}
	if a := call("k-before-0123456789"); a.Error != nil {
		t.Fatal(a.Error)
	}
	if err := cluster.Stop("fast"); err != nil {
		t.Fatal(err)
	}
	down := time.Now()
	first := call("k-down-1-0123456789")
	var later *seller.Answer
	for time.Since(down) < 2500*time.Millisecond {
		later = call("k-down-2-0123456789")
		time.Sleep(100 * time.Millisecond)
	}
	for i, a := range []*seller.Answer{first, later} {
		if a.Error == nil || a.Error.Code != "SERVICE_UNAVAILABLE" || a.Error.Recovery != "transient" {
			t.Fatalf("call %d while down: %+v", i, a.Error)
		}
	}
	if first.Error.RetryAfter < time.Second || later.Error.RetryAfter < 4*time.Second || later.Error.RetryAfter > 30*time.Second {
		t.Fatalf("retry_after %v then %v: want 1 s growing past 2.5 s of outage to 4 s", first.Error.RetryAfter, later.Error.RetryAfter)
	}
	// The same on the wire, over MCP and A2A: the adcp_error carries it.
	mcpH, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		t.Fatal(err)
	}
	mcpTS := httptest.NewServer(mcpH)
	defer mcpTS.Close()
	a2aTS := httptest.NewServer(a2aserver.NewHandler(srv, a2aserver.Options{URL: "http://127.0.0.1/a2a"}))
	defer a2aTS.Close()
	x := extract.New(adcpt.Spec())
	args := `{"idempotency_key":"k-down-3-0123456789","packages":[{"product_id":"ctv","budget":5}]}`
	mcpOut, err := mcpCall(mcpTS.URL, "create_media_buy", args)
	if err != nil {
		t.Fatal(err)
	}
	a2aBody := `{"jsonrpc":"2.0","id":"r1","method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user",` +
		`"parts":[{"kind":"data","data":{"skill":"create_media_buy","input":` + args + `}}]}}}`
	resp, err := http.Post(a2aTS.URL, "application/json", strings.NewReader(a2aBody))
	if err != nil {
		t.Fatal(err)
	}
	a2aOut, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, w := range []struct {
		name string
		r    *extract.Result
	}{{"MCP", x.MCP(mcpOut)}, {"A2A", x.A2A(a2aOut)}} {
		if e := w.r.Error; e == nil || e.Code != "SERVICE_UNAVAILABLE" || e.RetryAfter < 4*time.Second {
			t.Fatalf("%s while down: %+v (%v)", w.name, e, w.r.Failure())
		}
	}
	if err := cluster.Start(); err != nil {
		t.Fatal(err)
	}
	var back *seller.Answer
	waitFor(t, "a call to succeed after the outage", func() bool {
		back = call("k-down-2-0123456789")
		return back.Error == nil
	})
	if strings.Contains(string(back.Body), "replayed") {
		t.Fatalf("the key that only met the outage replayed: %s", back.Body)
	}
}

// The racing polls, on two replicas of one database: every
// task's work attempted by both at once, five times each; WorkOnTask lets
// one worker per task through, and the buy it books commits with the
// task's completion: one buy per task, every task completed.
func TestRacingReplicasBuyOnce(t *testing.T) {
	_, stores, db := faultCluster(t, 2)
	var srvs []*seller.Server
	for _, s := range stores {
		srv, tasks, err := killableReplica(s, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tasks.Close(context.Background()) })
		srvs = append(srvs, srv)
	}
	const n = 30
	ids := make([]string, n)
	for i := range ids {
		a := srvs[i%2].Serve(context.Background(), "create_media_buy", &seller.Call{Transport: seller.TransportMCP,
			Arguments: json.RawMessage(fmt.Sprintf(`{"idempotency_key":"k-race-%04d-0123456789","po_number":"async","packages":[{"product_id":"ctv","budget":5}]}`, i))})
		if a.Error != nil || a.TaskID == "" {
			t.Fatalf("start: %+v", a)
		}
		ids[i] = a.TaskID
	}
	var wg sync.WaitGroup
	for i, id := range ids {
		for r := range 10 {
			wg.Go(func() {
				err := seller.WorkOnTask(context.Background(), srvs[r%2], "anonymous", id, buyTask(srvs[r%2], stores[r%2], "anonymous", id, nil))
				if err != nil && !errors.Is(err, seller.ErrTaskBusy) && !errors.Is(err, seller.ErrTaskEnded) {
					t.Errorf("task %d, racer %d: %v", i, r, err)
				}
			})
		}
	}
	wg.Wait()
	var buys, tasksBought, completed int
	if err := db.QueryRow(t.Context(), `SELECT count(*), count(DISTINCT task_id) FROM test_buys WHERE task_id IS NOT NULL`).Scan(&buys, &tasksBought); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(t.Context(), `SELECT count(*) FROM adcp_tasks WHERE status = 'completed'`).Scan(&completed); err != nil {
		t.Fatal(err)
	}
	// A racer that found the task done already completes nothing; one that
	// claimed it after completion finds it ended: buys stay at n.
	if buys != n || tasksBought != n || completed != n {
		t.Fatalf("%d buys for %d tasks, %d completed; want %d each", buys, tasksBought, completed, n)
	}
}
