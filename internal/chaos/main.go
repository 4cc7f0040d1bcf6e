// Command chaos puts examples/seller through the faults production brings
// and counts what must never happen (issue 27): a real PostgreSQL (a
// throwaway cluster on a unix socket, internal/pgtest), two replicas of the
// seller binary started with -postgres, buyers over MCP and A2A (the typed
// buyer of runtime/buyer, on 3.0.26 bindings generated beside it), and a
// webhook receiver, all on loopback. The faults, one after another under
// load:
//
//   - PostgreSQL restarted (pg_ctl -m fast), then stopped for 15 s;
//   - kill -9 of a replica during async creates (po_number "async...");
//   - the same async task polled on both replicas at once;
//   - the webhook receiver down for 60 s, the replica sending its
//     notifications killed with -9 meanwhile, and clients dripping request
//     bodies at the other replica;
//   - unsigned JSON-RPC batches over MCP and A2A.
//
// It prints the counts and exits 1 when any of these is not 0: duplicate
// buys (two media_buy_ids for one idempotency key, or buys listed by
// get_media_buys that no answer named), orphaned tasks (submitted or working
// after the faults end), lost notifications (a task ended and its receiver
// never heard), keys stuck past the claim lease (in flight, or unanswered,
// long after the faults), batches executed, and slow-body connections the
// seller still held past its read timeout. Every loop is bounded, the whole
// run by 10 minutes: about three on 2 cores, five when faults bite (keys
// abandoned, notifications awaited in vain). README.md has the figures.
//
//	go generate && go run . -seller ../../examples/seller/bin/seller
//
// run.sh (make chaos) generates the bindings and builds the seller first.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	var o options
	flag.StringVar(&o.seller, "seller", "", "the examples/seller binary (built once; make chaos builds it)")
	flag.IntVar(&o.workers, "workers", 4, "buyers creating media buys at once, half over MCP, half over A2A")
	flag.IntVar(&o.burst, "burst", 28, "more buyers while PostgreSQL and replica a fail")
	flag.DurationVar(&o.pgDown, "pg-down", 15*time.Second, "how long PostgreSQL stays stopped")
	flag.DurationVar(&o.receiverDown, "receiver-down", 60*time.Second, "how long the webhook receiver stays down")
	flag.DurationVar(&o.lease, "lease", 10*time.Second, "the claim lease a dead replica's keys are taken over within; a key in flight 3 times longer is stuck")
	flag.DurationVar(&o.deliveryWait, "delivery-wait", 2*time.Minute, "how long notifications may take to arrive once the receiver is back")
	flag.IntVar(&o.slowClients, "slow-clients", 100, "clients dripping a request body at a replica")
	flag.DurationVar(&o.readTimeout, "read-timeout", 30*time.Second, "the seller's read timeout (runtime/sellerhttp's default): slow clients must be gone 15 s after it")
	flag.StringVar(&o.logs, "logs", "", "keep the replicas' logs in this directory (default: a temporary one, removed)")
	flag.Parse()
	if o.seller == "" {
		fmt.Fprintln(os.Stderr, "chaos: -seller is required (the examples/seller binary; make chaos builds it)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute) // the whole run's bound
	defer cancel()
	counts, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	if counts.failed() {
		fmt.Println("chaos: FAILED")
		os.Exit(1)
	}
	fmt.Println("chaos: ok")
}

// options are the run's settings.
type options struct {
	seller       string
	workers      int
	burst        int
	pgDown       time.Duration
	receiverDown time.Duration
	lease        time.Duration
	deliveryWait time.Duration
	slowClients  int
	readTimeout  time.Duration
	logs         string
}
