// Package storetest is the conformance suite of sellerstore.Store: every
// store runs it (the in-memory one in sellerstore's tests, PostgreSQL in the
// pgstore module). Run it with the race detector.
package storetest

import (
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// Factory returns a fresh, empty store reading time from clock. It may
// register cleanups on t.
type Factory func(t *testing.T, clock sellerstore.Clock) sellerstore.Store

// PairFactory returns two handles on one fresh, empty backend, as two
// server replicas would hold them, both reading time from clock.
type PairFactory func(t *testing.T, clock sellerstore.Clock) (a, b sellerstore.Store)

// Start is where every suite clock starts: a fixed instant with a
// sub-microsecond part, which stores must truncate.
var Start = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)

// Concurrency is how many callers the race tests send at one key.
const Concurrency = 50

// Run runs the whole suite, each test on a fresh store from newStore.
func Run(t *testing.T, newStore Factory) {
	for _, tc := range append(idempotencyTests, concurrencyTests...) {
		t.Run("Idempotency/"+tc.name, func(t *testing.T) {
			clock := NewFakeClock(Start)
			tc.run(t, newStore(t, clock), clock)
		})
	}
	for _, tc := range claimTests {
		t.Run("Claims/"+tc.name, func(t *testing.T) {
			clock := NewFakeClock(Start)
			tc.run(t, newStore(t, clock), clock)
		})
	}
	for _, tc := range outboxTests {
		t.Run("Outbox/"+tc.name, func(t *testing.T) {
			clock := NewFakeClock(Start)
			tc.run(t, newStore(t, clock), clock)
		})
	}
	for _, tc := range unitTests {
		t.Run("Units/"+tc.name, func(t *testing.T) {
			clock := NewFakeClock(Start)
			tc.run(t, newStore(t, clock), clock)
		})
	}
	for _, tc := range taskTests {
		t.Run("Tasks/"+tc.name, func(t *testing.T) {
			clock := NewFakeClock(Start)
			tc.run(t, newStore(t, clock), clock)
		})
	}
	t.Run("Purge", func(t *testing.T) {
		clock := NewFakeClock(Start)
		testPurge(t, newStore(t, clock), clock)
	})
}

// RunShared runs the tests that need two replicas on one backend: claims
// raced across both, a response completed on one replayed by the other, a
// claim abandoned on one taken over by the other, a task written by one
// read by the other.
func RunShared(t *testing.T, newPair PairFactory) {
	for _, tc := range append(append(sharedTests, sharedClaimTests...), sharedOutboxTests...) {
		t.Run("Shared/"+tc.name, func(t *testing.T) {
			clock := NewFakeClock(Start)
			a, b := newPair(t, clock)
			tc.run(t, a, b, clock)
		})
	}
}

type storeTest struct {
	name string
	run  func(t *testing.T, s sellerstore.Store, clock *FakeClock)
}

type sharedTest struct {
	name string
	run  func(t *testing.T, a, b sellerstore.Store, clock *FakeClock)
}

// at is the time a store records for the clock's present.
func at(clock *FakeClock) time.Time { return storekit.Timestamp(clock.Now()) }
