package storetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// race sends Concurrency claims of req at once, spread over stores, and
// returns their answers.
func race(t *testing.T, req sellerstore.ClaimRequest, stores ...sellerstore.Store) []sellerstore.Claim {
	t.Helper()
	return raceEach(t, func(int) sellerstore.ClaimRequest { return req }, stores...)
}

func raceEach(t *testing.T, reqOf func(i int) sellerstore.ClaimRequest, stores ...sellerstore.Store) []sellerstore.Claim {
	t.Helper()
	claims := make([]sellerstore.Claim, Concurrency)
	errs := make([]error, Concurrency)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range Concurrency {
		wg.Go(func() {
			<-start
			claims[i], errs[i] = stores[i%len(stores)].Claim(context.Background(), reqOf(i))
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("caller %d: Claim: %v", i, err)
		}
	}
	return claims
}

func countOutcome(claims []sellerstore.Claim, o sellerstore.Outcome) int {
	n := 0
	for _, c := range claims {
		if c.Outcome == o {
			n++
		}
	}
	return n
}

func outcomes(claims []sellerstore.Claim) map[string]int {
	m := map[string]int{}
	for _, c := range claims {
		m[c.Outcome.String()]++
	}
	return m
}

// ConcurrentClaims sends Concurrency callers at one new key, spread over
// stores (handles on one backend): exactly one claims it, the others see it
// in flight; once the winner completes, every caller replays its bytes.
func ConcurrentClaims(t *testing.T, stores ...sellerstore.Store) {
	t.Helper()
	req := request("p1", "race", fpA)
	claims := race(t, req, stores...)
	if n, m := countOutcome(claims, sellerstore.Claimed), countOutcome(claims, sellerstore.InFlight); n != 1 || m != Concurrency-1 {
		t.Fatalf("%d concurrent claims of one key: %v, want 1 claimed and the rest in flight", Concurrency, outcomes(claims))
	}
	for _, c := range claims {
		if c.Outcome == sellerstore.Claimed {
			complete(t, stores[0], req, c.Token, stored)
		}
	}
	for i, c := range race(t, req, stores...) {
		if c.Outcome != sellerstore.Replay {
			t.Fatalf("caller %d after completion: %v, want replay", i, c.Outcome)
		}
		sameResponse(t, c.Response, stored)
	}
}

// ConcurrentRetries plays Concurrency buyers retrying one key through
// stores until each gets a response: the handler runs once and every buyer
// receives its bytes.
func ConcurrentRetries(t *testing.T, stores ...sellerstore.Store) {
	t.Helper()
	req := request("p1", "retry", fpA)
	var runs atomic.Int32
	responses := make([][]byte, Concurrency)
	errs := make([]error, Concurrency)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range Concurrency {
		wg.Go(func() {
			<-start
			responses[i], errs[i] = retryUntilAnswered(stores[i%len(stores)], req, &runs, i)
		})
	}
	close(start)
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Fatalf("the handler ran %d times for one key, want once", n)
	}
	var want []byte
	for i, err := range errs {
		if err != nil {
			t.Fatalf("buyer %d: %v", i, err)
		}
		if want == nil {
			want = responses[i]
		}
		if !bytes.Equal(responses[i], want) {
			t.Fatalf("buyer %d got %q, buyer 0 %q", i, responses[i], want)
		}
	}
}

func retryUntilAnswered(s sellerstore.Store, req sellerstore.ClaimRequest, runs *atomic.Int32, caller int) ([]byte, error) {
	ctx := context.Background()
	for attempt := 0; attempt < 2000; attempt++ {
		c, err := s.Claim(ctx, req)
		if err != nil {
			return nil, err
		}
		switch c.Outcome {
		case sellerstore.Claimed:
			runs.Add(1)
			resp := sellerstore.StoredResponse{Body: fmt.Appendf(nil, `{"made_by":%d}`, caller), Status: "completed"}
			if err := s.Complete(ctx, req.IdempotencyKey, c.Token, resp); err != nil {
				return nil, err
			}
			return resp.Body, nil
		case sellerstore.Replay:
			return c.Response.Body, nil
		case sellerstore.InFlight:
			time.Sleep(time.Millisecond)
		default:
			return nil, fmt.Errorf("outcome %v", c.Outcome)
		}
	}
	return nil, fmt.Errorf("still in flight after 2000 attempts")
}

// ConcurrentConflicts races two fingerprints at one new key: one caller
// claims it, the winner's twins see it in flight, the others conflict.
func ConcurrentConflicts(t *testing.T, stores ...sellerstore.Store) {
	t.Helper()
	fingerprint := func(i int) string {
		if i%3 == 0 {
			return fpB
		}
		return fpA
	}
	claims := raceEach(t, func(i int) sellerstore.ClaimRequest { return request("p1", "mixed", fingerprint(i)) }, stores...)
	winner := -1
	for i, c := range claims {
		if c.Outcome == sellerstore.Claimed {
			if winner >= 0 {
				t.Fatalf("callers %d and %d both claimed one key: %v", winner, i, outcomes(claims))
			}
			winner = i
		}
	}
	if winner < 0 {
		t.Fatalf("nobody claimed the key: %v", outcomes(claims))
	}
	for i, c := range claims {
		want := sellerstore.Conflict
		switch {
		case i == winner:
			continue
		case fingerprint(i) == fingerprint(winner):
			want = sellerstore.InFlight
		}
		if c.Outcome != want {
			t.Fatalf("caller %d (fingerprint %s, winner's %s): %v, want %v", i, fingerprint(i), fingerprint(winner), c.Outcome, want)
		}
	}
}

var concurrencyTests = []storeTest{
	{"ConcurrentClaimsOneWinner", func(t *testing.T, s sellerstore.Store, clock *FakeClock) { ConcurrentClaims(t, s) }},
	{"ConcurrentRetriesRunTheHandlerOnce", func(t *testing.T, s sellerstore.Store, clock *FakeClock) { ConcurrentRetries(t, s) }},
	{"ConcurrentFingerprintsConflict", func(t *testing.T, s sellerstore.Store, clock *FakeClock) { ConcurrentConflicts(t, s) }},
	{"ConcurrentTakeoverOneWinner", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		claim(t, s, req, sellerstore.Claimed)
		clock.Advance(lease)
		claims := race(t, req, s)
		if n := countOutcome(claims, sellerstore.Claimed); n != 1 {
			t.Fatalf("%d of %d callers took over the lapsed claim, want 1 (%v)", n, Concurrency, outcomes(claims))
		}
	}},
}
