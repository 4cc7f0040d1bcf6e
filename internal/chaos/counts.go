package main

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
)

// counts are what the run found. Every count failed() reads must be 0.
type counts struct {
	start        time.Time
	receiverBack time.Time

	keys, asyncKeys, bought, tasks int
	ends                           map[string]int // how keys ended
	dupKeys                        []string       // keys answered with two media buys
	listedIDs                      map[string]bool
	unnamed                        []string // listed buys no answer named
	orphaned                       []string // tasks not ended
	notified, lost                 int      // ended tasks with a webhook: notified, never
	deliveries                     int
	stuck                          []string // keys in flight past 3 leases, or abandoned
	batches                        batchResult
	slow, slowHeld                 int
	byPhase                        map[string]*phaseCounts
}

// phaseCounts are the failures of the keys first sent in one phase.
type phaseCounts struct{ keys, dup, stuck, orphaned, lost int }

func (c *counts) failed() bool {
	return len(c.dupKeys)+len(c.unnamed)+len(c.orphaned)+c.lost+len(c.stuck)+c.batches.executed+c.slowHeld > 0
}

// fill reads the ledger and the receiver.
func (c *counts) fill(r *runner) {
	l := r.ledger
	l.mu.Lock()
	defer l.mu.Unlock()
	c.ends, c.byPhase = map[string]int{}, map[string]*phaseCounts{}
	ph := func(name string) *phaseCounts {
		if c.byPhase[name] == nil {
			c.byPhase[name] = &phaseCounts{}
		}
		return c.byPhase[name]
	}
	named := map[string]bool{}
	for _, k := range l.keys {
		c.keys++
		ph(k.phase).keys++
		if k.async {
			c.asyncKeys++
		}
		c.ends[k.final]++
		for b := range k.buys {
			named[b] = true
		}
		if len(k.buys) > 0 {
			c.bought++
		}
		if len(k.buys) > 1 {
			c.dupKeys = append(c.dupKeys, k.key)
			ph(k.phase).dup++
		}
		if k.final == "abandoned" || k.inFlightMax > 3*r.o.lease {
			c.stuck = append(c.stuck, k.key)
			ph(k.phase).stuck++
		}
	}
	for id := range c.listedIDs {
		if !named[id] {
			c.unnamed = append(c.unnamed, id)
		}
	}
	for _, t := range l.tasks {
		c.tasks++
		if !final(t.status) {
			c.orphaned = append(c.orphaned, t.id)
			ph(t.phase).orphaned++
			continue
		}
		if !t.notify {
			continue
		}
		if r.recv.heard(t.id, t.status) {
			c.notified++
		} else {
			c.lost++
			ph(t.phase).lost++
		}
	}
	c.deliveries = r.recv.deliveries()
	sort.Strings(c.dupKeys)
	sort.Strings(c.unnamed)
	sort.Strings(c.orphaned)
	sort.Strings(c.stuck)
}

func (c *counts) print(r *runner) {
	p := func(format string, a ...any) { fmt.Printf("chaos: "+format+"\n", a...) }
	p("keys %d (%d async), %d answered with a media buy, %d tasks; how keys ended: %s", c.keys, c.asyncKeys, c.bought, c.tasks, joinCounts(c.ends))
	p("duplicate buys %d: %d keys answered with two media buys, %d of %d buys listed by get_media_buys named by no answer",
		len(c.dupKeys)+len(c.unnamed), len(c.dupKeys), len(c.unnamed), len(c.listedIDs))
	p("orphaned tasks %d (still submitted or working after the faults)", len(c.orphaned))
	p("lost notifications %d of %d ended tasks with a webhook (%d deliveries received)", c.lost, c.lost+c.notified, c.deliveries)
	p("keys stuck past the lease %d (in flight over %s, or unanswered for %s)", len(c.stuck), 3*r.o.lease, r.keyBound())
	p("batches executed %d of %d unsigned batches", c.batches.executed, c.batches.sent)
	p("slow-body connections held %d of %d, %s after they started", c.slowHeld, c.slow, r.o.readTimeout+15*time.Second)
	for _, name := range slices.Sorted(maps.Keys(c.byPhase)) {
		f := c.byPhase[name]
		if f.dup+f.stuck+f.orphaned+f.lost > 0 {
			p("  in %q: %d keys, %d duplicate, %d stuck, %d orphaned tasks, %d lost notifications", name, f.keys, f.dup, f.stuck, f.orphaned, f.lost)
		}
	}
	for _, l := range []struct {
		what string
		ids  []string
	}{{"keys with two buys", c.dupKeys}, {"buys no answer named", c.unnamed}, {"orphaned tasks", c.orphaned}, {"stuck keys", c.stuck}} {
		if len(l.ids) > 0 {
			p("  %s: %s", l.what, strings.Join(l.ids[:min(len(l.ids), 5)], ", "))
		}
	}
	p("took %s", time.Since(c.start).Round(time.Second))
}

func joinCounts(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
