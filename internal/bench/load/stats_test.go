package main

import (
	"bytes"
	"testing"
	"time"
)

func TestQuantile(t *testing.T) {
	lat := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 5}, {0.99, 10}, {0.1, 1}, {0, 1}, {1, 10}} {
		if got := quantile(lat, tc.q); got != tc.want {
			t.Errorf("quantile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if quantile(nil, 0.5) != 0 {
		t.Error("quantile of nothing is not 0")
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {nil, 0}} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestCompareRoundByRound(t *testing.T) {
	s := func(calls int) sample { return sample{calls: calls, elapsed: time.Second} }
	// Round 2 is slow for both: the ratio of each round counts, not the
	// ratio of the medians.
	r := compare([]sample{s(500), s(100), s(600)}, []sample{s(100), s(50), s(100)})
	if r.median != 5 || r.lo != 2 || r.hi != 6 {
		t.Fatalf("compare = %+v, want median 5 in 2-6", r)
	}
	if r := compare([]sample{s(1)}, []sample{s(0)}); r.median != 0 {
		t.Fatalf("a ratio over a cell without calls: %+v", r)
	}
}

func TestSummarize(t *testing.T) {
	rounds := []sample{
		{calls: 100, elapsed: time.Second, lat: []time.Duration{time.Millisecond, 3 * time.Millisecond}, cpu: 200 * time.Millisecond, allocs: 1000, bytes: 100 << 10, wire: 2048},
		{calls: 300, elapsed: time.Second, lat: []time.Duration{time.Millisecond, 5 * time.Millisecond}, cpu: 300 * time.Millisecond, allocs: 900, bytes: 300 << 10, wire: 2048},
		{calls: 200, elapsed: time.Second, lat: []time.Duration{2 * time.Millisecond, 4 * time.Millisecond}, cpu: 200 * time.Millisecond, allocs: 2000, bytes: 200 << 10, wire: 2048},
	}
	got := summarize(rounds)
	want := summary{perSecond: 200, p50: 1, p99: 4, cpu: 1, allocs: 10, kb: 1, wireKB: 2, minPerSecond: 100, maxPerSecond: 300}
	if got != want {
		t.Fatalf("summarize = %+v\nwant        %+v", got, want)
	}
}

func TestTableAligns(t *testing.T) {
	var b bytes.Buffer
	table(&b, []string{"server", "calls/s"}, [][]string{{"adcpgen", "1200"}, {"go-sdk", "35"}})
	want := "server   calls/s\nadcpgen     1200\ngo-sdk        35\n"
	if b.String() != want {
		t.Fatalf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}
