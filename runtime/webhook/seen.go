package webhook

import (
	"sync"
	"time"
)

// seenSet remembers keys (accepted signatures, webhook idempotency keys)
// for a fixed time, within a fixed number of entries. Keys are forgotten
// in the order they were added, which is also the order they expire in,
// since every entry lives for the same ttl.
type seenSet struct {
	mu  sync.Mutex
	ttl time.Duration
	max int
	// evict: when full of live entries, drop the oldest (best-effort
	// deduplication) instead of refusing the new key (replay protection,
	// where forgetting a live signature would let it be replayed).
	evict bool
	m     map[string]*seenEntry
	queue []queued
}

type seenEntry struct {
	expires time.Time
	done    bool
	// fp is what the key is bound to (a payload's fingerprint), "" when
	// nothing is.
	fp string
}

type queued struct {
	key     string
	expires time.Time
}

// seenState is what add found.
type seenState int

const (
	seenNew      seenState = iota // added; the caller owns the key
	seenDone                      // added before and finished
	seenPending                   // added before, not finished yet
	seenFull                      // not added: too many live entries
	seenConflict                  // added before, bound to another fingerprint
)

func newSeenSet(ttl time.Duration, max int, evict bool) *seenSet {
	return &seenSet{ttl: ttl, max: max, evict: evict, m: map[string]*seenEntry{}}
}

// add records key, bound to fp, at now unless it is already there.
func (s *seenSet) add(key, fp string, now time.Time) seenState {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	if e, ok := s.m[key]; ok {
		if e.fp != fp {
			return seenConflict
		}
		if e.done {
			return seenDone
		}
		return seenPending
	}
	if len(s.m) >= s.max {
		if !s.evict {
			return seenFull
		}
		for len(s.m) >= s.max && len(s.queue) > 0 {
			s.drop(s.queue[0])
			s.queue = s.queue[1:]
		}
	}
	exp := now.Add(s.ttl)
	s.m[key] = &seenEntry{expires: exp, fp: fp}
	s.queue = append(s.queue, queued{key, exp})
	if len(s.queue) > 2*s.max+16 { // forgotten keys leave stale queue entries
		s.compact()
	}
	return seenNew
}

// finish marks key as handled: later adds answer seenDone.
func (s *seenSet) finish(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.m[key]; ok {
		e.done = true
	}
}

// forget removes key, so the same key may be tried again.
func (s *seenSet) forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
}

func (s *seenSet) expire(now time.Time) {
	i := 0
	for ; i < len(s.queue) && !now.Before(s.queue[i].expires); i++ {
		s.drop(s.queue[i])
	}
	s.queue = s.queue[i:]
}

// drop deletes q's key unless the key was forgotten and added again since.
func (s *seenSet) drop(q queued) {
	if e, ok := s.m[q.key]; ok && e.expires.Equal(q.expires) {
		delete(s.m, q.key)
	}
}

func (s *seenSet) compact() {
	live := s.queue[:0]
	for _, q := range s.queue {
		if e, ok := s.m[q.key]; ok && e.expires.Equal(q.expires) {
			live = append(live, q)
		}
	}
	s.queue = append([]queued(nil), live...)
}
