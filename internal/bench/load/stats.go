package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// sample is what one cell measured in one round.
type sample struct {
	calls   int
	elapsed time.Duration
	lat     []time.Duration // one per call, sorted
	// The measured side's CPU time and allocations over the cell: the
	// server's process for a server cell, this process (the clients) for a
	// buyer cell.
	cpu           time.Duration
	allocs, bytes uint64
	clientCPU     time.Duration // this process's (the clients') CPU time
	wire          int           // bytes of one answer on the wire (the HTTP body)
}

func (s sample) perSecond() float64 {
	if s.elapsed <= 0 {
		return 0
	}
	return float64(s.calls) / s.elapsed.Seconds()
}

// quantile is the q-quantile of sorted durations (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	i = max(0, min(i, len(sorted)-1))
	return sorted[i]
}

func (s sample) perCall(v float64) float64 {
	if s.calls == 0 {
		return 0
	}
	return v / float64(s.calls)
}

// median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// summary is a cell's medians over its rounds.
type summary struct {
	perSecond, p50, p99        float64 // calls/s, ms, ms
	cpu, allocs, kb, wireKB    float64 // ms, count, KB: per call
	clientCPU                  float64 // ms per call
	minPerSecond, maxPerSecond float64
}

func summarize(rounds []sample) summary {
	var rate, p50, p99, cpu, allocs, kb, client []float64
	var out summary
	for i, s := range rounds {
		r := s.perSecond()
		rate = append(rate, r)
		if i == 0 || r < out.minPerSecond {
			out.minPerSecond = r
		}
		out.maxPerSecond = max(out.maxPerSecond, r)
		p50 = append(p50, ms(quantile(s.lat, 0.50)))
		p99 = append(p99, ms(quantile(s.lat, 0.99)))
		cpu = append(cpu, s.perCall(ms(s.cpu)))
		allocs = append(allocs, s.perCall(float64(s.allocs)))
		kb = append(kb, s.perCall(float64(s.bytes)/1024))
		client = append(client, s.perCall(ms(s.clientCPU)))
		out.wireKB = float64(s.wire) / 1024
	}
	out.perSecond, out.p50, out.p99 = median(rate), median(p50), median(p99)
	out.cpu, out.allocs, out.kb, out.clientCPU = median(cpu), median(allocs), median(kb), median(client)
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// ratio compares two cells round by round: the median of a's calls/s over
// b's in each round, and the range of those ratios.
type ratio struct{ median, lo, hi float64 }

func compare(a, b []sample) ratio {
	var rs []float64
	for i := range min(len(a), len(b)) {
		if rb := b[i].perSecond(); rb > 0 {
			rs = append(rs, a[i].perSecond()/rb)
		}
	}
	if len(rs) == 0 {
		return ratio{}
	}
	return ratio{median: median(rs), lo: slices.Min(rs), hi: slices.Max(rs)}
}

func (r ratio) String() string {
	return fmt.Sprintf("%.2fx (%.2f-%.2f)", r.median, r.lo, r.hi)
}

// table writes rows under a header, columns aligned.
func table(w io.Writer, header []string, rows [][]string) {
	widths := make([]int, len(header))
	for _, row := range append([][]string{header}, rows...) {
		for i, c := range row {
			widths[i] = max(widths[i], len(c))
		}
	}
	line := func(row []string) {
		var b strings.Builder
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			if i == 0 {
				fmt.Fprintf(&b, "%-*s", widths[i], c)
			} else {
				fmt.Fprintf(&b, "%*s", widths[i], c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(header)
	for _, row := range rows {
		line(row)
	}
}
