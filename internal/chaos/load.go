package main

import (
	"context"
	"crypto/rand"
	mrand "math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"github.com/adcpgen/adcpgen/internal/chaos/adcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// buyRequest is a create_media_buy of the seller's test product under
// key; an async one (po_number "async...", which the seller answers
// submitted and completes on the first status poll) registers hook for
// the task's notifications.
func buyRequest(key string, async bool, hook string) *adcp.CreateMediaBuyRequest {
	req := &adcp.CreateMediaBuyRequest{
		IdempotencyKey: key,
		Account: adcp.NewAccountReferenceBrand(adcp.AccountReferenceBrand{
			Brand: adcp.BrandReference{Domain: "acmeoutdoor.example"}, Operator: "pinnacle-agency.example"}),
		Brand:     adcp.BrandReference{Domain: "acmeoutdoor.example"},
		StartTime: adcp.StartTiming("asap"),
		EndTime:   wire.DateTime("2099-07-31T23:59:59Z"),
		Packages:  []adcp.PackageRequest{{ProductID: "test-product", PricingOptionID: "test-pricing", Budget: 5000}},
	}
	if async {
		req.PoNumber = new("async-" + key)
		req.PushNotificationConfig = &adcp.PushNotificationConfig{URL: hook}
	}
	return req
}

// newKey is a fresh idempotency key (the seller's minimum is 16
// characters).
func newKey(prefix string) string {
	return prefix + "-" + strings.ToLower(rand.Text())
}

// buyer is one load worker: a typed buyer over one transport with a
// connection to each replica, preferring one and turning to the other
// when its replica cannot be reached (as a load balancer would).
type worker struct {
	r     *runner
	proto string
	conns [2]*conn
	pref  int
}

// loop creates media buys until stop or the run's load stop is set, a
// quarter of them async (all of them while r.asyncOnly is set), each
// followed to its end.
func (w *worker) loop(ctx context.Context, stop *atomic.Bool) {
	for ctx.Err() == nil && !stop.Load() && !w.r.stopLoad.Load() {
		async := w.r.asyncOnly.Load() || mrand.IntN(4) == 0
		if id := w.buy(ctx, newKey("load"), async, -1); id != "" {
			w.follow(ctx, id, -1)
		}
		sleep(ctx, 20*time.Millisecond)
	}
}

// buy sends one create_media_buy under key until it is answered (a buy,
// a task, a refusal), retrying the same key as the seller says, on the
// other replica when one is unreachable, for at most keyBound; only >= 0
// pins the replica. It returns the task id of a submitted answer, for the
// caller to follow.
func (w *worker) buy(ctx context.Context, key string, async bool, only int) (taskID string) {
	r := w.r
	phase := r.phase()
	r.ledger.open(key, phase, w.proto, async)
	req := buyRequest(key, async, r.recv.url(key))
	rep := w.pref
	if only >= 0 {
		rep = only
	}
	deadline := time.Now().Add(r.keyBound())
	for ctx.Err() == nil {
		if time.Now().After(deadline) {
			r.ledger.ended(key, "abandoned")
			return ""
		}
		c, err := w.conns[rep].client(ctx)
		if err != nil {
			if only < 0 {
				rep = 1 - rep
			}
			sleep(ctx, 200*time.Millisecond)
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		res, err := buyer.Call(cctx, c, adcp.Tools.CreateMediaBuy, req, buyer.NoRetry())
		cancel()
		if err == nil {
			r.ledger.settled(key)
			switch {
			case res.Status == task.Completed && res.Response != nil && res.Response.Success != nil:
				r.ledger.bought(key, res.Response.Success.MediaBuyID)
			case res.TaskID != "" && !final(string(res.Status)):
				r.ledger.submitted(key, res.TaskID, phase, async)
				return res.TaskID
			default:
				r.ledger.ended(key, "refused "+string(res.Status))
			}
			return ""
		}
		v, pause, code := judge(err)
		switch v {
		case elsewhere:
			w.conns[rep].reset()
			if only < 0 {
				rep = 1 - rep
			}
		case inFlight:
			r.ledger.inFlight(key, time.Now())
		case stop:
			r.ledger.ended(key, "refused "+code)
			return ""
		}
		sleep(ctx, pause)
	}
	r.ledger.ended(key, "abandoned")
	return ""
}

// follow polls task until it ends (or keyBound passes), on the worker's
// replica, the other one when that cannot be reached.
func (w *worker) follow(ctx context.Context, taskID string, only int) {
	r := w.r
	rep := w.pref
	if only >= 0 {
		rep = only
	}
	deadline := time.Now().Add(r.keyBound())
	for ctx.Err() == nil && time.Now().Before(deadline) {
		c, err := w.conns[rep].client(ctx)
		if err != nil {
			if only < 0 {
				rep = 1 - rep
			}
			sleep(ctx, 200*time.Millisecond)
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		res, err := buyer.Wait(cctx, c, adcp.Tools.CreateMediaBuy, taskID, buyer.NoRetry())
		cancel()
		if err == nil {
			buy := ""
			if res.Response != nil && res.Response.Success != nil {
				buy = res.Response.Success.MediaBuyID
			}
			r.ledger.polled(taskID, string(res.Status), buy)
			if final(string(res.Status)) || res.Status == task.InputRequired {
				return
			}
			continue
		}
		v, pause, _ := judge(err)
		switch v {
		case elsewhere:
			w.conns[rep].reset()
			if only < 0 {
				rep = 1 - rep
			}
		case stop:
			return
		}
		sleep(ctx, pause)
	}
}
