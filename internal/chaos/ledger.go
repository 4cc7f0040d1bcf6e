package main

import (
	"sort"
	"sync"
	"time"
)

// ledger is what the buyers were answered, by idempotency key and by
// task: the evidence the counts are made of.
type ledger struct {
	mu    sync.Mutex
	keys  map[string]*keyRecord
	tasks map[string]*taskRecord
}

// keyRecord is one idempotency key: the phase it was first sent in, every
// media buy and task its answers named, and how it ended.
type keyRecord struct {
	key, phase, transport string
	async                 bool
	buys                  map[string]bool
	tasks                 map[string]bool
	// inFlightSince is the first in-flight answer (CONFLICT,
	// IDEMPOTENCY_IN_FLIGHT) of the current run of them; inFlightMax the
	// longest such run.
	inFlightSince time.Time
	inFlightMax   time.Duration
	final         string // "bought", "submitted", "refused CODE", "abandoned"
}

// taskRecord is one async task: its key and what polls said of it.
type taskRecord struct {
	id, key, phase string
	status         string // the last status read
	buys           map[string]bool
	notify         bool // registered a webhook
}

func newLedger() *ledger {
	return &ledger{keys: map[string]*keyRecord{}, tasks: map[string]*taskRecord{}}
}

// open records a key about to be sent.
func (l *ledger) open(key, phase, transport string, async bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.keys[key] = &keyRecord{key: key, phase: phase, transport: transport, async: async, buys: map[string]bool{}, tasks: map[string]bool{}}
}

func (l *ledger) with(key string, f func(*keyRecord)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if k := l.keys[key]; k != nil {
		f(k)
	}
}

// bought records a media buy an answer for key named.
func (l *ledger) bought(key, buy string) {
	l.with(key, func(k *keyRecord) { k.buys[buy] = true; k.final = "bought" })
}

// submitted records the task an answer for key named.
func (l *ledger) submitted(key, task, phase string, notify bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if k := l.keys[key]; k != nil {
		k.tasks[task] = true
		if k.final == "" {
			k.final = "submitted"
		}
	}
	if l.tasks[task] == nil {
		l.tasks[task] = &taskRecord{id: task, key: key, phase: phase, status: "submitted", buys: map[string]bool{}, notify: notify}
	}
}

// polled records what a status poll said of a task.
func (l *ledger) polled(task, status, buy string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.tasks[task]
	if t == nil {
		return
	}
	t.status = status
	if buy != "" {
		t.buys[buy] = true
		if k := l.keys[t.key]; k != nil {
			k.buys[buy] = true
			k.final = "bought"
		}
	}
}

// inFlight records an in-flight answer for key at now; settled ends the run.
func (l *ledger) inFlight(key string, now time.Time) {
	l.with(key, func(k *keyRecord) {
		if k.inFlightSince.IsZero() {
			k.inFlightSince = now
		}
		if d := now.Sub(k.inFlightSince); d > k.inFlightMax {
			k.inFlightMax = d
		}
	})
}

func (l *ledger) settled(key string) {
	l.with(key, func(k *keyRecord) { k.inFlightSince = time.Time{} })
}

// ended records how a key ended, unless it bought.
func (l *ledger) ended(key, how string) {
	l.with(key, func(k *keyRecord) {
		if k.final != "bought" {
			k.final = how
		}
	})
}

// openTasks lists the tasks whose last status is not final.
func (l *ledger) openTasks() []*taskRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []*taskRecord
	for _, t := range l.tasks {
		if !final(t.status) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// final reports a task status no task leaves.
func final(status string) bool {
	switch status {
	case "completed", "failed", "canceled", "rejected":
		return true
	}
	return false
}
