package replay_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/replay"
)

func TestLocal(t *testing.T) {
	ctx := context.Background()
	r := replay.NewLocal(0)
	now := testNow
	exp := now.Add(6 * time.Minute)
	step := func(res replay.InsertResult, err error) replay.InsertResult {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if got := step(r.Insert(ctx, "k", "n1", exp, 2, now)); got != replay.Inserted {
		t.Fatal(got)
	}
	if got := step(r.Insert(ctx, "k", "n1", exp, 2, now)); got != replay.Seen {
		t.Fatal(got)
	}
	if got := step(r.Insert(ctx, "other", "n1", exp, 2, now)); got != replay.Inserted {
		t.Fatal("a nonce is per keyid")
	}
	step(r.Insert(ctx, "k", "n2", exp, 2, now))
	if got := step(r.Insert(ctx, "k", "n3", exp, 2, now)); got != replay.Limited {
		t.Fatal("past the cap:", got)
	}
	c, _ := r.Check(ctx, "k", "n1", 2, now)
	if !c.AtLimit || !c.Seen {
		t.Fatalf("%+v", c)
	}
	// After expiry the pairs are gone (swept within a second at the cap).
	later := exp.Add(2 * time.Second)
	c, _ = r.Check(ctx, "k", "n1", 2, later)
	if c.AtLimit || c.Seen {
		t.Fatalf("after expiry %+v", c)
	}
	if got := step(r.Insert(ctx, "k", "n1", later.Add(time.Minute), 2, later)); got != replay.Inserted {
		t.Fatal("an expired pair is admitted again:", got)
	}
	// The aggregate cap.
	agg := replay.NewLocal(3)
	for i := 0; i < 3; i++ {
		step(agg.Insert(ctx, "k"+strconv.Itoa(i), "n", exp, 10, now))
	}
	if got := step(agg.Insert(ctx, "k9", "n", exp, 10, now)); got != replay.Limited {
		t.Fatal("aggregate cap:", got)
	}
	if c, _ := agg.Check(ctx, "k9", "n", 10, now); !c.AtLimit {
		t.Fatal("aggregate cap not reported by Check")
	}
}

// TestMemoryReplayConcurrent: goroutines racing to insert the same pairs
// and to fill one keyid's cap admit each pair once and never pass the cap
// (run with -race).
func TestLocalConcurrent(t *testing.T) {
	ctx := context.Background()
	r := replay.NewLocal(0)
	const limit = 100
	var inserted, limited atomic.Int32
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				res, err := r.Insert(ctx, "k", "n"+strconv.Itoa(i), testNow.Add(time.Minute), limit, testNow)
				if err != nil {
					t.Error(err)
				}
				switch res {
				case replay.Inserted:
					inserted.Add(1)
				case replay.Limited:
					limited.Add(1)
				}
				_, _ = r.Check(ctx, "k", "n"+strconv.Itoa(i), limit, testNow)
			}
		}()
	}
	wg.Wait()
	if inserted.Load() != limit || r.Len() != limit {
		t.Fatalf("%d inserted, %d held; want %d", inserted.Load(), r.Len(), limit)
	}
}

var testNow = time.Unix(1776520800, 0)
