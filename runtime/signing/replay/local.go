package replay

import (
	"context"
	"crypto/sha256"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// Local is an in-memory Ledger for a single process. Each pair
// costs about 40 bytes (the nonce kept as a 128-bit hash with a 32-bit
// expiry); see BenchmarkLocalMillion. Expired pairs are swept per
// keyid at most once a second when the keyid is at its cap and otherwise
// once a minute, so a keyid's count is exact to within a second. It is safe
// for concurrent use; Insert is atomic per keyid.
//
// Several replicas of a verifier behind one address need a shared store
// (the PostgreSQL one), or a replay sent to the other replica succeeds.
type Local struct {
	seed     maphash.Seed
	maxTotal int64
	total    atomic.Int64
	shards   [replayShards]replayShard
}

const replayShards = 64

type replayShard struct {
	mu        sync.Mutex
	keys      map[string]*replayKey
	lastSweep int64
}

type replayKey struct {
	nonces    map[[16]byte]uint32 // nonce hash → expiry (Unix seconds)
	minExp    int64               // earliest expiry held, or 0 when empty
	lastSweep int64
}

// NewLocal returns an empty store. maxEntries caps the pairs of all
// keyids together (the webhook profile's aggregate cap; security.mdx
// recommends at most 10,000,000); 0 means no aggregate cap.
func NewLocal(maxEntries int) *Local {
	m := &Local{seed: maphash.MakeSeed(), maxTotal: int64(maxEntries)}
	for i := range m.shards {
		m.shards[i].keys = make(map[string]*replayKey)
	}
	return m
}

func (m *Local) shard(keyID string) *replayShard {
	return &m.shards[maphash.String(m.seed, keyID)%replayShards]
}

func nonceHash(nonce string) [16]byte {
	sum := sha256.Sum256([]byte(nonce))
	var h [16]byte
	copy(h[:], sum[:16])
	return h
}

// Check implements Ledger.
func (m *Local) Check(_ context.Context, keyID, nonce string, limit int, now time.Time) (Found, error) {
	s := m.shard(keyID)
	h := nonceHash(nonce)
	t := now.Unix()
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.keys[keyID]
	if k == nil {
		return Found{AtLimit: m.maxTotal > 0 && m.total.Load() >= m.maxTotal}, nil
	}
	m.maybeSweep(k, limit, t)
	exp, ok := k.nonces[h]
	return Found{
		AtLimit: len(k.nonces) >= limit || (m.maxTotal > 0 && m.total.Load() >= m.maxTotal),
		Seen:    ok && int64(exp) > t,
	}, nil
}

// Insert implements Ledger.
func (m *Local) Insert(_ context.Context, keyID, nonce string, expires time.Time, limit int, now time.Time) (InsertResult, error) {
	s := m.shard(keyID)
	h := nonceHash(nonce)
	t := now.Unix()
	s.mu.Lock()
	defer s.mu.Unlock()
	if t-s.lastSweep >= 300 {
		m.sweepShard(s, t)
	}
	k := s.keys[keyID]
	if k == nil {
		k = &replayKey{nonces: make(map[[16]byte]uint32), lastSweep: t}
		s.keys[keyID] = k
	}
	m.maybeSweep(k, limit, t)
	if exp, ok := k.nonces[h]; ok && int64(exp) > t {
		return Seen, nil
	} else if ok {
		delete(k.nonces, h) // expired: re-admit below
		m.total.Add(-1)
	}
	if len(k.nonces) >= limit || (m.maxTotal > 0 && m.total.Load() >= m.maxTotal) {
		return Limited, nil
	}
	exp := expires.Unix()
	k.nonces[h] = uint32(exp)
	if k.minExp == 0 || exp < k.minExp {
		k.minExp = exp
	}
	m.total.Add(1)
	return Inserted, nil
}

// maybeSweep drops the keyid's expired pairs when one is due: at most once
// a second while the keyid is at its cap, once a minute otherwise.
func (m *Local) maybeSweep(k *replayKey, limit int, t int64) {
	if k.minExp == 0 || t < k.minExp {
		return
	}
	every := int64(60)
	if len(k.nonces) >= limit {
		every = 1
	}
	if t-k.lastSweep < every {
		return
	}
	m.sweepKey(k, t)
}

func (m *Local) sweepKey(k *replayKey, t int64) {
	k.lastSweep = t
	var minExp int64
	removed := 0
	for h, exp := range k.nonces {
		if int64(exp) <= t {
			delete(k.nonces, h)
			removed++
		} else if minExp == 0 || int64(exp) < minExp {
			minExp = int64(exp)
		}
	}
	k.minExp = minExp
	m.total.Add(-int64(removed))
}

// sweepShard sweeps every keyid of the shard and forgets the empty ones.
func (m *Local) sweepShard(s *replayShard, t int64) {
	s.lastSweep = t
	for id, k := range s.keys {
		if k.minExp != 0 && t >= k.minExp {
			m.sweepKey(k, t)
		}
		if len(k.nonces) == 0 {
			delete(s.keys, id)
		}
	}
}

// Len is the number of pairs held, expired ones not yet swept included.
func (m *Local) Len() int { return int(m.total.Load()) }
