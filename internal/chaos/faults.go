package main

import (
	"context"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/buyer"
)

// racePolls submits n async buys on replica a, then polls each task on
// both replicas at the same moment, twice on each (MCP and A2A): the
// seller completes a task on its first poll, so every replica tries to.
func (r *runner) racePolls(ctx context.Context, n int) {
	w := r.worker("mcp", 0)
	var ids []string
	for range n {
		if id := w.buy(ctx, newKey("race"), true, 0); id != "" {
			ids = append(ids, id)
		}
	}
	fast := buyer.Polling{Interval: time.Millisecond, MaxInterval: 100 * time.Millisecond}
	type poller struct {
		w   *worker
		rep int
	}
	var pollers []poller
	for _, proto := range []string{"mcp", "a2a"} {
		for rep := range 2 {
			pollers = append(pollers, poller{r.workerPolling(proto, rep, fast), rep})
		}
	}
	for _, id := range ids {
		// Connected first, so that nothing but the poll lies between the
		// barrier and the seller.
		for _, p := range pollers {
			_, _ = p.w.conns[p.rep].client(ctx)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for _, p := range pollers {
			wg.Go(func() { <-start; p.w.follow(ctx, id, p.rep) })
		}
		close(start)
		wg.Wait()
	}
}

// outage takes the receiver down for o.receiverDown. Meanwhile: ten async
// buys are completed by polls on replica a, which then holds their
// notifications' retries, and is killed with -9 a quarter of a minute in
// (and started again); o.slowClients connections drip a body at replica b,
// which must have closed them all o.readTimeout + 15 s in.
func (r *runner) outage(ctx context.Context, c *counts) error {
	r.recv.down()
	t0 := time.Now()
	slow, err := openSlow(r.reps[1].hostPort(), r.o.slowClients)
	if err != nil {
		return err
	}
	defer slow.close()
	c.slow = len(slow)
	w := r.worker("mcp", 0)
	for range 10 {
		if id := w.buy(ctx, newKey("outage"), true, 0); id != "" {
			w.follow(ctx, id, 0)
		}
	}
	sleepUntil(ctx, t0.Add(15*time.Second))
	if err := r.reps[0].kill(); err != nil {
		return err
	}
	if err := r.reps[0].restart(ctx); err != nil {
		return err
	}
	sleepUntil(ctx, t0.Add(r.o.readTimeout+15*time.Second))
	c.slowHeld = slow.held()
	sleepUntil(ctx, t0.Add(r.o.receiverDown))
	c.receiverBack = time.Now()
	return r.recv.up(ctx)
}

func sleepUntil(ctx context.Context, t time.Time) {
	if d := time.Until(t); d > 0 {
		sleep(ctx, d)
	}
}
