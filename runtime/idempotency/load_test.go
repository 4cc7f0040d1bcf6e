package idempotency_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/sellerrig"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// Load: 64 buyers' go-sdk clients call create_media_buy over MCP on
// loopback, each with fresh keys and a retry of every fourth one, through
// strict decoding, schema validation of request and response, the
// idempotency layer and the in-memory store. Bounded in calls and time;
// it reports calls per second and latency percentiles, and fails on any
// error, any retry that was not a replay of the first answer, and any key
// whose record the store no longer replays.
//
//	go test ./runtime/idempotency -run Load -v
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the load test makes 4000 calls")
	}
	const (
		clients   = 64
		perClient = 50 // fresh keys per client; every fourth is sent twice
	)
	r := newRig(t, withAdCP31Codes(), idempotency.Options{}, nil)
	url := sellerrig.ServeMCP(t, r.srv)
	x := extract.New(r.spec)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	type sent struct {
		key, args, mediaBuy string
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		records   []sent
		failures  []string
	)
	fail := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, fmt.Sprintf(format, a...))
		}
	}
	buyers := make([]*sellerrig.Buyer, clients)
	for i := range buyers {
		buyers[i] = sellerrig.ConnectMCP(t, url, sellerrig.KeyOf("buyer-a"), x)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			var mine []time.Duration
			for i := range perClient {
				key := fmt.Sprintf("load-%02d-%04d-0123456789", c, i)
				args := buy(key, fmt.Sprint(100+i), "")
				sends := 1
				if i%4 == 0 {
					sends = 2
				}
				first := ""
				for s := range sends {
					t0 := time.Now()
					o := buyers[c].Call(ctx, "create_media_buy", args)
					mine = append(mine, time.Since(t0))
					id := o.Member("media_buy_id")
					switch {
					case o.CallErr != nil || o.Err != nil:
						fail("client %d key %s send %d: %v %v", c, key, s, o.CallErr, o.Err)
					case s == 0 && (id == "" || o.Replayed):
						fail("client %d key %s: first answer %s", c, key, o.Data)
					case s == 1 && (!o.Replayed || id != first):
						fail("client %d key %s: retry answered %s, want a replay of %s", c, key, o.Data, first)
					}
					if s == 0 {
						first = id
					}
				}
				mu.Lock()
				records = append(records, sent{key, args, first})
				mu.Unlock()
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(failures) > 0 {
		t.Fatalf("%d+ failures, first: %s", len(failures), strings.Join(failures, "\n"))
	}
	if n := r.calls.Load(); n != int64(clients*perClient) {
		t.Fatalf("the handler ran %d times for %d keys", n, clients*perClient)
	}
	// No lost record: every key still replays its first answer.
	for _, s := range records {
		canonical, err := sellerstore.Canonical([]byte(s.args), "idempotency_key", "context")
		if err != nil {
			t.Fatal(err)
		}
		claim, err := r.store.Claim(ctx, sellerstore.ClaimRequest{
			IdempotencyKey: sellerstore.IdempotencyKey{Principal: "buyer-a", Tool: "create_media_buy", Key: s.key},
			Fingerprint:    sellerstore.Fingerprint(canonical), Lease: time.Minute, Retention: idempotency.DefaultRetention,
		})
		if err != nil || claim.Outcome != sellerstore.Replay || !strings.Contains(string(claim.Response.Body), `"`+s.mediaBuy+`"`) {
			t.Fatalf("key %s: %v %v %s, want a replay of %s", s.key, err, claim.Outcome, claim.Response.Body, s.mediaBuy)
		}
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	t.Logf("%d clients, %d calls (%d keys, %d replays) in %s: %.0f calls/s; latency p50 %s, p90 %s, p99 %s, max %s",
		clients, len(latencies), len(records), len(latencies)-len(records), elapsed.Round(time.Millisecond),
		float64(len(latencies))/elapsed.Seconds(), pct(0.50).Round(10*time.Microsecond), pct(0.90).Round(10*time.Microsecond),
		pct(0.99).Round(10*time.Microsecond), latencies[len(latencies)-1].Round(10*time.Microsecond))
}
