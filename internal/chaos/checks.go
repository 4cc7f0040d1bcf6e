package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/internal/chaos/adcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
)

// settleTasks polls every task not known to have ended, eight at a time,
// for at most a minute: what is still submitted or working then is
// orphaned.
func (r *runner) settleTasks(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	open := make(chan *taskRecord)
	var wg sync.WaitGroup
	for i := range 8 {
		w := r.worker([]string{"mcp", "a2a"}[i%2], i%2)
		wg.Go(func() {
			for t := range open {
				w.follow(ctx, t.id, -1)
			}
		})
	}
	for _, t := range r.ledger.openTasks() {
		select {
		case open <- t:
		case <-ctx.Done():
		}
	}
	close(open)
	wg.Wait()
}

// awaitNotifications waits, at most o.deliveryWait after the receiver came
// back, until every task that registered a webhook and ended has been
// notified of its end.
func (r *runner) awaitNotifications(ctx context.Context, c *counts) {
	deadline := c.receiverBack.Add(r.o.deliveryWait)
	for {
		missing := r.unnotified()
		if len(missing) == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return
		}
		sleep(ctx, time.Second)
	}
}

// unnotified lists the ended tasks that registered a webhook and whose
// end was never notified.
func (r *runner) unnotified() []string {
	r.ledger.mu.Lock()
	defer r.ledger.mu.Unlock()
	var out []string
	for _, t := range r.ledger.tasks {
		if t.notify && final(t.status) && !r.recv.heard(t.id, t.status) {
			out = append(out, t.id)
		}
	}
	return out
}

// allStatuses lists every media buy status of 3.0.26: get_media_buys
// lists only active buys unless asked.
var allStatuses = []adcp.MediaBuyStatus{
	adcp.MediaBuyStatusPendingCreatives, adcp.MediaBuyStatusPendingStart, adcp.MediaBuyStatusActive,
	adcp.MediaBuyStatusPaused, adcp.MediaBuyStatusCompleted, adcp.MediaBuyStatusRejected, adcp.MediaBuyStatusCanceled,
}

// countBuys lists the buyer's media buys on both replicas, page by page.
func (r *runner) countBuys(ctx context.Context, c *counts) error {
	c.listedIDs = map[string]bool{}
	for i := range r.reps {
		w := r.worker("mcp", i)
		var cursor *string
		for page := 0; ; page++ {
			if page > 10000 {
				return fmt.Errorf("get_media_buys on replica %s: more than 10000 pages", r.reps[i].name)
			}
			req := &adcp.GetMediaBuysRequest{StatusFilter: adcp.NewGetMediaBuysRequestStatusFilterArray(allStatuses),
				Pagination: &adcp.PaginationRequest{MaxResults: new(int64(100)), Cursor: cursor}}
			var res *adcp.GetMediaBuysResponse
			var err error
			for attempt := 0; attempt < 20; attempt++ {
				var cl *buyer.Client
				if cl, err = w.conns[i].client(ctx); err == nil {
					cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
					out, cerr := buyer.Call(cctx, cl, adcp.Tools.GetMediaBuys, req, buyer.NoRetry())
					cancel()
					if err = cerr; err == nil {
						res = out.Response
						break
					}
				}
				w.conns[i].reset()
				sleep(ctx, 500*time.Millisecond)
			}
			if err != nil {
				return fmt.Errorf("get_media_buys on replica %s: %w", r.reps[i].name, err)
			}
			if res == nil {
				return fmt.Errorf("get_media_buys on replica %s: no response", r.reps[i].name)
			}
			for _, b := range res.MediaBuys {
				c.listedIDs[b.MediaBuyID] = true
			}
			if res.Pagination == nil || !res.Pagination.HasMore || res.Pagination.Cursor == nil {
				break
			}
			cursor = res.Pagination.Cursor
		}
	}
	return nil
}
