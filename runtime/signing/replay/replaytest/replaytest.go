// Package replaytest is the conformance suite of replay.Ledger: every
// ledger runs it (the in-memory one in replay's tests, PostgreSQL in the
// pgstore module). Run it with the race detector.
//
// What it holds a store to (security.mdx "Transport replay dedup"): a
// (keyid, nonce) pair is admitted once while live, per keyid; a keyid at
// its cap is refused, never admitted by evicting a live pair; a pair that
// expired is admitted again and no longer counts; and Insert is atomic,
// so callers racing on one pair admit it once and callers racing on one
// keyid never push it past its cap, on one store or on two handles of one
// backend (two replicas).
package replaytest

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/replay"
)

// start is the suite's clock: a fixed instant with a sub-second part,
// which stores keeping whole seconds or microseconds must round safely.
var start = time.Date(2026, 4, 18, 12, 0, 0, 500_000_000, time.UTC)

// Racers is how many callers the concurrency tests send at once.
const Racers = 50

type test struct {
	name string
	run  func(t *testing.T, a, b replay.Ledger)
}

// Conformance runs every test on a fresh, empty store from newStore; the
// tests meant for two replicas run on two uses of the one store.
func Conformance(t *testing.T, newStore func(t *testing.T) replay.Ledger) {
	for _, tc := range append(singleTests, sharedTests...) {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			tc.run(t, s, s)
		})
	}
}

// ConformanceShared runs the tests meant for two replicas on two handles
// of one fresh, empty backend from newPair, as two server processes hold
// it: what one admits the other refuses.
func ConformanceShared(t *testing.T, newPair func(t *testing.T) (a, b replay.Ledger)) {
	for _, tc := range sharedTests {
		t.Run("Shared/"+tc.name, func(t *testing.T) {
			a, b := newPair(t)
			tc.run(t, a, b)
		})
	}
}

func insert(t *testing.T, s replay.Ledger, key, nonce string, expires time.Time, limit int, now time.Time) replay.InsertResult {
	t.Helper()
	res, err := s.Insert(context.Background(), key, nonce, expires, limit, now)
	if err != nil {
		t.Fatalf("Insert(%q, %q): %v", key, nonce, err)
	}
	return res
}

func check(t *testing.T, s replay.Ledger, key, nonce string, limit int, now time.Time) replay.Found {
	t.Helper()
	c, err := s.Check(context.Background(), key, nonce, limit, now)
	if err != nil {
		t.Fatalf("Check(%q, %q): %v", key, nonce, err)
	}
	return c
}

func want[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

var singleTests = []test{
	{"AdmitOnce", func(t *testing.T, s, _ replay.Ledger) {
		exp := start.Add(6 * time.Minute)
		want(t, "empty store, Check", check(t, s, "k", "n1", 10, start), replay.Found{})
		want(t, "first insert", insert(t, s, "k", "n1", exp, 10, start), replay.Inserted)
		want(t, "same pair again", insert(t, s, "k", "n1", exp, 10, start), replay.Seen)
		want(t, "Check of the live pair", check(t, s, "k", "n1", 10, start), replay.Found{Seen: true})
		want(t, "Check of another nonce", check(t, s, "k", "n2", 10, start), replay.Found{})
		want(t, "the nonce under another keyid", insert(t, s, "other", "n1", exp, 10, start), replay.Inserted)
	}},
	{"CapRefusesNeverEvicts", func(t *testing.T, s, _ replay.Ledger) {
		exp := start.Add(6 * time.Minute)
		for i := range 3 {
			want(t, "insert under the cap", insert(t, s, "k", "n"+strconv.Itoa(i), exp, 3, start), replay.Inserted)
		}
		want(t, "past the cap", insert(t, s, "k", "n3", exp, 3, start), replay.Limited)
		want(t, "Check at the cap", check(t, s, "k", "n3", 3, start), replay.Found{AtLimit: true})
		// Nothing was evicted: every admitted pair is still a replay.
		for i := range 3 {
			want(t, "admitted pair after the refusal", insert(t, s, "k", "n"+strconv.Itoa(i), exp, 3, start), replay.Seen)
		}
		want(t, "Check of a live pair at the cap", check(t, s, "k", "n0", 3, start), replay.Found{AtLimit: true, Seen: true})
		want(t, "another keyid is not capped", insert(t, s, "k2", "n3", exp, 3, start), replay.Inserted)
		want(t, "a larger cap admits", insert(t, s, "k", "n3", exp, 4, start), replay.Inserted)
	}},
	{"ExpiredPairsLeave", func(t *testing.T, s, _ replay.Ledger) {
		exp := start.Add(6 * time.Minute)
		insert(t, s, "k", "n1", exp, 2, start)
		insert(t, s, "k", "n2", exp, 2, start)
		want(t, "at the cap", insert(t, s, "k", "n3", exp, 2, start), replay.Limited)
		// An in-memory store may sweep at most once a second: look 2 s after.
		later := exp.Add(2 * time.Second)
		want(t, "Check after expiry", check(t, s, "k", "n1", 2, later), replay.Found{})
		want(t, "an expired pair is admitted again", insert(t, s, "k", "n1", later.Add(6*time.Minute), 2, later), replay.Inserted)
		want(t, "the cap counts live pairs only", insert(t, s, "k", "n3", later.Add(6*time.Minute), 2, later), replay.Inserted)
		want(t, "the re-admitted pair is live", insert(t, s, "k", "n1", later.Add(6*time.Minute), 2, later), replay.Seen)
	}},
	{"LiveUntilExpires", func(t *testing.T, s, _ replay.Ledger) {
		exp := start.Add(6 * time.Minute)
		insert(t, s, "k", "n1", exp, 10, start)
		want(t, "a second before expiry", insert(t, s, "k", "n1", exp, 10, exp.Add(-time.Second)), replay.Seen)
	}},
	{"Opaque", func(t *testing.T, s, _ replay.Ledger) {
		// keyids and nonces are the signer's strings (RFC 8941 sf-strings:
		// printable ASCII): stored as they are, compared exactly.
		exp := start.Add(6 * time.Minute)
		for _, k := range []string{"k'; DROP TABLE x; --", "K", "k", `k"\`, "%_", "k "} {
			want(t, "insert "+strconv.Quote(k), insert(t, s, k, "n", exp, 10, start), replay.Inserted)
		}
		want(t, "nonces differing in case", insert(t, s, "k", "N", exp, 10, start), replay.Inserted)
		want(t, "a LIKE pattern matches nothing", check(t, s, "_", "n", 10, start), replay.Found{})
	}},
}

var sharedTests = []test{
	{"SeenByTheOther", func(t *testing.T, a, b replay.Ledger) {
		exp := start.Add(6 * time.Minute)
		want(t, "admitted by one", insert(t, a, "k", "n1", exp, 10, start), replay.Inserted)
		want(t, "Check on the other", check(t, b, "k", "n1", 10, start), replay.Found{Seen: true})
		want(t, "replayed to the other", insert(t, b, "k", "n1", exp, 10, start), replay.Seen)
		insert(t, b, "k", "n2", exp, 2, start)
		want(t, "the cap counts both", insert(t, a, "k", "n3", exp, 2, start), replay.Limited)
	}},
	{"RaceOnePair", func(t *testing.T, a, b replay.Ledger) {
		// Racers copies of one signed request: exactly one admitted.
		exp := start.Add(6 * time.Minute)
		results := race(t, a, b, func(int) string { return "the-nonce" }, exp, 1_000_000)
		want(t, "admitted", results[replay.Inserted], 1)
		want(t, "refused as seen", results[replay.Seen], Racers-1)
	}},
	{"RaceToTheCap", func(t *testing.T, a, b replay.Ledger) {
		// Racers distinct nonces of one keyid, cap 10: exactly 10 admitted.
		exp := start.Add(6 * time.Minute)
		results := race(t, a, b, func(i int) string { return "n" + strconv.Itoa(i) }, exp, 10)
		want(t, "admitted", results[replay.Inserted], 10)
		want(t, "refused at the cap", results[replay.Limited], Racers-10)
		want(t, "Check after the race", check(t, a, "k", "n-new", 10, start), replay.Found{AtLimit: true})
	}},
}

// race sends Racers inserts under keyid "k" at once, alternating between
// a and b, and counts the results.
func race(t *testing.T, a, b replay.Ledger, nonce func(int) string, exp time.Time, limit int) map[replay.InsertResult]int {
	t.Helper()
	results := make([]replay.InsertResult, Racers)
	errs := make([]error, Racers)
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for i := range Racers {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			<-gate
			results[i], errs[i] = s.Insert(context.Background(), "k", nonce(i), exp, limit, start)
		})
	}
	close(gate)
	wg.Wait()
	counts := map[replay.InsertResult]int{}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("racer %d: %v", i, err)
		}
		counts[results[i]]++
	}
	return counts
}
