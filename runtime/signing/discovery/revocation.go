package discovery

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"
)

// RevocationPoller keeps a revocation.Feed fresh from an operator's
// signed revocation list (security.mdx "Transport revocation"): it fetches
// the list under the Fetcher's rules, checks its JWS against Keys (the
// operator's JWKS) and its issuer, and installs it; it polls again at the
// list's next_update (held within 1 to 30 minutes), with conditional
// requests, and after a failure in a minute. A verifier given Revocations
// refuses new signatures once the list is stale.
type RevocationPoller struct {
	// URL is the list's location.
	URL string
	// Issuer, when set, must be the list's issuer.
	Issuer string
	// Keys verifies the list's signature.
	Keys keys.Resolver
	// Fetcher fetches it; nil is a zero Fetcher.
	Fetcher *Fetcher
	// Revocations receives each list; a verifier reads it.
	Revocations *revocation.Feed
	// Now is the clock; nil is time.Now.
	Now func() time.Time

	mu   sync.Mutex
	etag string
	last *revocation.List
}

// Poll fetches and installs the list once.
func (p *RevocationPoller) Poll(ctx context.Context) error {
	if p.Revocations == nil || p.Keys == nil {
		return errors.New("discovery: RevocationPoller needs Revocations and Keys")
	}
	f := p.Fetcher
	if f == nil {
		f = &Fetcher{}
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var hdr http.Header
	if p.etag != "" && p.last != nil {
		hdr = http.Header{"If-None-Match": {p.etag}}
	}
	resp, err := f.Get(ctx, p.URL, MaxRevocationBytes, hdr)
	if err != nil {
		return err
	}
	if resp.Status == http.StatusNotModified {
		p.Revocations.Update(p.last, now())
		return nil
	}
	l, err := revocation.VerifyJWS(ctx, resp.Body, p.Keys, p.Issuer)
	if err != nil {
		return err
	}
	p.last, p.etag = l, resp.Header.Get("ETag")
	p.Revocations.Update(l, now())
	return nil
}

// Run polls until ctx is done: at each next_update, or a minute after a
// failure. Poll errors go to report (nil ignores them); the list turns
// stale by itself when they last.
func (p *RevocationPoller) Run(ctx context.Context, report func(error)) {
	for {
		wait := revocation.MinPoll
		if err := p.Poll(ctx); err != nil {
			if report != nil {
				report(err)
			}
		} else if next := p.Revocations.NextPoll(); !next.IsZero() {
			wait = time.Until(next)
		}
		if wait < revocation.MinPoll {
			wait = revocation.MinPoll
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
