package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adcpgen/adcpgen/internal/pgtest"
	"github.com/adcpgen/adcpgen/runtime/buyer"
)

// runner is one chaos run: the database, the replicas, the receiver, the
// buyers' ledger, and the switches the faults flip under the load.
type runner struct {
	o      options
	pg     *pgtest.Cluster
	reps   [2]*replica
	recv   *receiver
	ledger *ledger
	apiKey string

	phaseName atomic.Value // string
	asyncOnly atomic.Bool
	stopLoad  atomic.Bool
	start     time.Time
}

func (r *runner) phase() string { s, _ := r.phaseName.Load().(string); return s }

// enter starts a phase and says so.
func (r *runner) enter(name string) {
	r.phaseName.Store(name)
	fmt.Printf("chaos: %6.1fs %s\n", time.Since(r.start).Seconds(), name)
}

// keyBound is how long a buyer keeps at one key before it counts it as
// abandoned: past a PostgreSQL outage and three claim leases.
func (r *runner) keyBound() time.Duration { return r.o.pgDown + 3*r.o.lease + 30*time.Second }

// conn makes a connection of the run's buyer to replica i.
func (r *runner) conn(proto string, i int, p buyer.Polling) *conn {
	return &conn{proto: proto, rep: r.reps[i], apiKey: r.apiKey, polling: p}
}

// worker is a buyer over proto preferring replica pref, polling tasks
// every 200 ms to 2 s.
func (r *runner) worker(proto string, pref int) *worker {
	return r.workerPolling(proto, pref, buyer.Polling{Interval: 200 * time.Millisecond, MaxInterval: 2 * time.Second})
}

func (r *runner) workerPolling(proto string, pref int, p buyer.Polling) *worker {
	return &worker{r: r, proto: proto, pref: pref, conns: [2]*conn{r.conn(proto, 0, p), r.conn(proto, 1, p)}}
}

func run(ctx context.Context, o options) (*counts, error) {
	r := &runner{o: o, ledger: newLedger(), apiKey: "chaos-" + newKey("key"), start: time.Now()}
	r.enter("setup: PostgreSQL, two replicas, the webhook receiver")
	logDir := o.logs
	if logDir == "" {
		d, err := os.MkdirTemp("", "adcpgen-chaos-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		logDir = d
	} else if err := os.MkdirAll(logDir, 0o755); err != nil {
		return nil, err
	}
	pg, err := pgtest.Start()
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL: %w", err)
	}
	r.pg = pg
	defer pg.Remove()
	for i, name := range []string{"a", "b"} {
		var flags []string
		if i == 1 {
			flags = []string{"-purge=false"} // one replica of a database purges
		}
		r.reps[i] = &replica{name: name, bin: o.seller, dsn: pg.DSN(), key: r.apiKey, logDir: logDir, flags: flags}
		if err := r.reps[i].start(ctx); err != nil {
			return nil, err
		}
		defer r.reps[i].stop()
	}
	if r.recv, err = newReceiver(); err != nil {
		return nil, err
	}
	defer r.recv.down()

	// The load: buyers over MCP and A2A, each preferring a replica; more
	// of them while PostgreSQL and a replica fail, so that the faults cut
	// calls in flight.
	var load sync.WaitGroup
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	startLoad := func(n int, stop *atomic.Bool) {
		for i := range n {
			w := r.worker([]string{"mcp", "a2a"}[i%2], (i/2)%2)
			load.Go(func() { w.loop(loadCtx, stop) })
		}
	}
	startLoad(max(o.workers, 2), &r.stopLoad)
	var burstDone atomic.Bool
	c := &counts{start: r.start}

	r.enter("load")
	sleep(ctx, 5*time.Second)

	r.enter(fmt.Sprintf("fault: PostgreSQL restarted (pg_ctl -m fast) under %d buyers", max(o.workers, 2)+o.burst))
	startLoad(o.burst, &burstDone)
	sleep(ctx, 2*time.Second)
	if err := pg.Restart("fast"); err != nil {
		return nil, err
	}
	sleep(ctx, 5*time.Second)

	r.enter(fmt.Sprintf("fault: PostgreSQL stopped for %s", o.pgDown))
	if err := pg.Stop("fast"); err != nil {
		return nil, err
	}
	sleep(ctx, o.pgDown)
	if err := pg.Start(); err != nil {
		return nil, err
	}
	sleep(ctx, 5*time.Second)

	r.enter("fault: kill -9 of replica a during async creates")
	r.asyncOnly.Store(true)
	sleep(ctx, 3*time.Second)
	if err := r.reps[0].kill(); err != nil {
		return nil, err
	}
	if err := r.reps[0].restart(ctx); err != nil {
		return nil, err
	}
	sleep(ctx, 2*o.lease)
	r.asyncOnly.Store(false)
	burstDone.Store(true) // its buyers finish their keys and stop

	r.enter("fault: the same tasks polled on both replicas at once")
	r.racePolls(ctx, 30)

	r.enter(fmt.Sprintf("fault: webhook receiver down %s; kill -9 of replica a during its retries; %d clients drip bodies at b", o.receiverDown, o.slowClients))
	if err := r.outage(ctx, c); err != nil {
		return nil, err
	}

	r.enter("fault: unsigned JSON-RPC batches")
	c.batches = r.sendBatches(ctx)

	r.enter("load stopped; buyers finish their keys")
	r.stopLoad.Store(true)
	waitGroup(&load, r.keyBound()+30*time.Second)
	stopLoad()

	r.enter("checks: every task to its end, every notification, get_media_buys on both replicas")
	r.settleTasks(ctx)
	r.awaitNotifications(ctx, c)
	if err := r.countBuys(ctx, c); err != nil {
		return nil, err
	}
	c.fill(r)
	c.print(r)
	return c, nil
}

// waitGroup waits for wg, at most d.
func waitGroup(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
