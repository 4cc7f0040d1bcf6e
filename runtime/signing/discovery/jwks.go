package discovery

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// Cache bounds for fetched keys: a JWKS is kept at most as long as the
// revocation list's polling ceiling (security.mdx: "JWKS cache TTL MUST be
// bounded above by the revocation-list polling interval"), refetched at
// once when an unknown kid arrives unless the last refetch was less than
// 30 s ago, and a failed fetch is remembered for at most 60 s.
const (
	DefaultKeyTTL    = 5 * time.Minute
	MaxKeyTTL        = revocation.MaxPoll
	RefetchCooldown  = 30 * time.Second
	DefaultFailedTTL = 10 * time.Second
	MaxFailedTTL     = 60 * time.Second
)

// JWKSOptions configure a JWKS source.
type JWKSOptions struct {
	// Fetcher fetches the JWKS; nil is a zero Fetcher.
	Fetcher *Fetcher
	// TTL is how long a fetched JWKS is used; 0 is DefaultKeyTTL, and it is
	// held to MaxKeyTTL.
	TTL time.Duration
	// FailedTTL is how long a failed fetch is answered from memory; 0 is
	// DefaultFailedTTL, held to MaxFailedTTL.
	FailedTTL time.Duration
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// JWKSEndpoint is a keys.Resolver over a JWKS fetched from an HTTPS URL (an
// agents[] entry's jwks_uri), its keys belonging to AgentURL. It is safe
// for concurrent use; concurrent lookups share one fetch.
type JWKSEndpoint struct {
	url, agentURL string
	o             JWKSOptions

	fetchMu sync.Mutex // one fetch at a time
	mu      sync.Mutex
	set     *keys.JWKS
	fetched time.Time
	refetch time.Time // last refetch for an unknown kid
	failed  time.Time
	failErr error
	fetches int
}

// NewJWKSEndpoint returns a key source for the JWKS at url.
func NewJWKSEndpoint(url, agentURL string, o JWKSOptions) *JWKSEndpoint {
	if o.Fetcher == nil {
		o.Fetcher = &Fetcher{}
	}
	if o.TTL <= 0 {
		o.TTL = DefaultKeyTTL
	}
	if o.TTL > MaxKeyTTL {
		o.TTL = MaxKeyTTL
	}
	if o.FailedTTL <= 0 {
		o.FailedTTL = DefaultFailedTTL
	}
	if o.FailedTTL > MaxFailedTTL {
		o.FailedTTL = MaxFailedTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &JWKSEndpoint{url: url, agentURL: agentURL, o: o}
}

// URL is the JWKS URL.
func (s *JWKSEndpoint) URL() string { return s.url }

// LookupKey implements keys.Resolver: the cached JWKS (fetched when
// absent or older than TTL), refetched once for a kid it lacks unless the
// last such refetch was within RefetchCooldown. Fetch failures carry
// request_signature_jwks_unavailable (transient) or
// request_signature_jwks_untrusted (an SSRF refusal, a redirect, a
// document over 64 KiB or not strict JSON).
func (s *JWKSEndpoint) LookupKey(ctx context.Context, kid string) (*keys.Key, error) {
	set, err := s.current(ctx, false)
	if err != nil {
		return nil, err
	}
	if k := set.Lookup(kid); k != nil {
		return &keys.Key{JWK: k, AgentURL: s.agentURL}, nil
	}
	s.mu.Lock()
	now := s.o.Now()
	due := s.refetch.IsZero() || now.Sub(s.refetch) >= RefetchCooldown
	if due {
		s.refetch = now
	}
	s.mu.Unlock()
	if due {
		if set, err = s.current(ctx, true); err != nil {
			return nil, err
		}
		if k := set.Lookup(kid); k != nil {
			return &keys.Key{JWK: k, AgentURL: s.agentURL}, nil
		}
	}
	return nil, &signing.Rejection{Code: signing.CodeKeyUnknown, Step: "7", Where: "keyid " + strconv.Quote(kid),
		Reason: "not in the JWKS at " + s.url + " (refetched at most every 30 s)"}
}

// Fetches counts the fetches made, for tests and metrics.
func (s *JWKSEndpoint) Fetches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetches
}

// current returns the JWKS, fetching it when it is absent, expired or
// force is set; a failed refresh of a set already held keeps that set.
func (s *JWKSEndpoint) current(ctx context.Context, force bool) (*keys.JWKS, error) {
	s.mu.Lock()
	now := s.o.Now()
	if s.set != nil && !force && now.Sub(s.fetched) < s.o.TTL {
		defer s.mu.Unlock()
		return s.set, nil
	}
	if s.failErr != nil && now.Sub(s.failed) < s.o.FailedTTL {
		defer s.mu.Unlock()
		if s.set != nil {
			return s.set, nil
		}
		return nil, s.failErr
	}
	before := s.fetches
	s.mu.Unlock()

	s.fetchMu.Lock()
	defer s.fetchMu.Unlock()
	s.mu.Lock()
	if s.fetches != before { // another lookup fetched while we waited
		defer s.mu.Unlock()
		if s.set != nil {
			return s.set, nil
		}
		return nil, s.failErr
	}
	s.mu.Unlock()

	set, err := s.fetch(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetches++
	if err != nil {
		s.failed, s.failErr = s.o.Now(), err
		if s.set != nil {
			return s.set, nil
		}
		return nil, err
	}
	s.set, s.fetched, s.failErr = set, s.o.Now(), nil
	return set, nil
}

func (s *JWKSEndpoint) fetch(ctx context.Context) (*keys.JWKS, error) {
	resp, err := s.o.Fetcher.Get(ctx, s.url, MaxJWKSBytes, nil)
	if err != nil {
		code := signing.CodeJWKSUnavailable
		var fe *FetchError
		if errors.As(err, &fe) && fe.Kind != Unavailable {
			code = signing.CodeJWKSUntrusted
		}
		return nil, &signing.Rejection{Code: code, Step: "7", Where: "jwks_uri", Err: err}
	}
	set, err := keys.ParseJWKS(resp.Body)
	if err != nil {
		return nil, &signing.Rejection{Code: signing.CodeJWKSUntrusted, Step: "7", Where: "jwks_uri", Reason: "not a strict JWKS", Err: err}
	}
	return set, nil
}
