package pgstore_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/replay"

	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/signing/replay/replaytest"
)

// The replay store passes the suite the in-memory one passes, and its
// shared tests on two pools (two replicas): what one admits the other
// refuses, 50 racing copies of a pair admit one, a cap holds across both.
func TestNonces(t *testing.T) {
	replaytest.Conformance(t, func(t *testing.T) replay.Ledger {
		return freshStore(t, pool(t), nil).Nonces()
	})
	replaytest.ConformanceShared(t, func(t *testing.T) (a, b replay.Ledger) {
		return freshStore(t, pool(t), nil).Nonces(), pgstore.New(pool(t), nil).Nonces()
	})
}

// Purge deletes the pairs that expired before the cutoff, and only those.
func TestNoncesPurge(t *testing.T) {
	s := freshStore(t, pool(t), nil)
	n := s.Nonces()
	now := time.Date(2026, 4, 18, 12, 0, 0, 0, time.UTC)
	for i, exp := range []time.Time{now.Add(-time.Hour), now.Add(-time.Minute), now.Add(time.Minute)} {
		if res, err := n.Insert(t.Context(), "k", string(rune('a'+i)), exp, 10, now.Add(-2*time.Hour)); err != nil || res != replay.Inserted {
			t.Fatalf("insert %d: %v %v", i, res, err)
		}
	}
	got, err := s.Purge(t.Context(), now.Add(-30*time.Minute))
	if err != nil || got.SignatureNonces != 1 {
		t.Fatalf("purge: %+v %v, want 1 nonce", got, err)
	}
	if got, err = s.Purge(t.Context(), now); err != nil || got.SignatureNonces != 1 {
		t.Fatalf("second purge: %+v %v, want 1 nonce", got, err)
	}
	if c, err := n.Check(t.Context(), "k", "c", 10, now); err != nil || !c.Seen {
		t.Fatalf("the live pair: %+v %v", c, err)
	}
}

// BenchmarkNonces: the replay store's cost per signed request on a local
// server: Insert (step 13, its transaction with the keyid's advisory lock)
// and Check (steps 9a and 12), each a new nonce of one keyid. Both count
// the keyid's live pairs (up to the cap), so they cost more as a keyid
// holds more: CheckFresh is a keyid holding none, Check the one Insert
// filled.
func BenchmarkNonces(b *testing.B) {
	p := pool(b)
	s := pgstore.New(p, nil)
	if err := s.Migrate(b.Context()); err != nil {
		b.Fatal(err)
	}
	if _, err := p.Exec(b.Context(), `TRUNCATE adcp_signature_nonces`); err != nil {
		b.Fatal(err)
	}
	n := s.Nonces()
	now := time.Now()
	exp := now.Add(6 * time.Minute)
	b.Run("Insert", func(b *testing.B) {
		run := strconv.FormatInt(time.Now().UnixNano(), 36) // each run its own nonces
		for i := 0; b.Loop(); i++ {
			if res, err := n.Insert(b.Context(), "bench-key", run+"-"+strconv.Itoa(i), exp, 1_000_000, now); err != nil || res != replay.Inserted {
				b.Fatal(res, err)
			}
		}
	})
	b.Run("CheckFresh", func(b *testing.B) { // a keyid with no live pair
		for i := 0; b.Loop(); i++ {
			if _, err := n.Check(b.Context(), "other-key", "n"+strconv.Itoa(i), 1_000_000, now); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Check", func(b *testing.B) { // the keyid Insert filled
		for i := 0; b.Loop(); i++ {
			if _, err := n.Check(b.Context(), "bench-key", "n"+strconv.Itoa(i), 1_000_000, now); err != nil {
				b.Fatal(err)
			}
		}
	})
}
