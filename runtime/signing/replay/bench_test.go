package replay_test

import (
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/replay"
)

// BenchmarkLocal: the cost of an insert and of a lookup (Check) in
// a store already holding 1,000,000 pairs of one keyid.
func BenchmarkLocal(b *testing.B) {
	ctx := context.Background()
	now := time.Unix(1776520800, 0)
	exp := now.Add(6 * time.Minute)
	r := replay.NewLocal(0)
	nonces := make([]string, 1_000_000)
	for i := range nonces {
		nonces[i] = "nonce-" + strconv.Itoa(i) + "-AAAAAAAAAAAAAAAA"
		_, _ = r.Insert(ctx, "k", nonces[i], exp, 2_000_000, now)
	}
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if c, _ := r.Check(ctx, "k", nonces[i%len(nonces)], 2_000_000, now); !c.Seen {
				b.Fatal("not seen")
			}
		}
	})
	b.Run("insert", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_, _ = r.Insert(ctx, "k2", "fresh-"+strconv.Itoa(i), exp, 1<<30, now)
		}
	})
}

// BenchmarkLocalMillion reports the heap that 1,000,000 live pairs
// of one keyid hold (issue 20: at most 128 MB), per store and per entry.
func BenchmarkLocalMillion(b *testing.B) {
	ctx := context.Background()
	now := time.Unix(1776520800, 0)
	exp := now.Add(6 * time.Minute)
	nonces := make([]string, 1_000_000)
	for i := range nonces {
		nonces[i] = "nonce-" + strconv.Itoa(i) + "-AAAAAAAAAAAAAAAA"
	}
	var held uint64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := replay.NewLocal(0)
		for _, n := range nonces {
			if res, _ := r.Insert(ctx, "k", n, exp, 1_000_000, now); res != replay.Inserted {
				b.Fatal(res)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(r)
	}
	b.ReportMetric(float64(held)/(1<<20), "MB/1M-entries")
	b.ReportMetric(float64(held)/1e6, "B/entry")
}
