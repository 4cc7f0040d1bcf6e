package revocation

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/internal/jsonread"
	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

// Source answers checklist step 9: is a keyid revoked, and is the
// verifier's view of the revocation list fresh enough to say?
type Source interface {
	// Revoked reports whether keyID is in revoked_kids. It returns
	// ErrStale when the list has not been refreshed within its
	// grace (security.mdx "Transport revocation"); a kid the last list
	// revoked is reported revoked even then.
	Revoked(ctx context.Context, keyID string, now time.Time) (bool, error)
}

// ErrStale says the revocation list was not refreshed within next_update
// plus grace: new signatures are refused until it is
// (request_signature_revocation_stale).
var ErrStale = errors.New("signing: the revocation list has not been refreshed within its grace period")

// Fixed is a Source over a fixed set of revoked kids, never stale: for
// tests and for operators who revoke by configuration.
type Fixed map[string]bool

// Revoked implements Source.
func (s Fixed) Revoked(_ context.Context, keyID string, _ time.Time) (bool, error) {
	return s[keyID], nil
}

// List is the payload of an operator's signed revocation list
// (security.mdx "Revocation", shared by "Transport revocation").
type List struct {
	Version     int
	Issuer      string
	Updated     time.Time
	NextUpdate  time.Time
	RevokedKids []string
	RevokedJTIs []string
}

// ParseList reads a revocation-list payload with the strict reader.
func ParseList(data []byte) (*List, error) {
	v, err := jsonread.Strict(data)
	if err != nil {
		return nil, fmt.Errorf("signing: revocation list: %w", err)
	}
	if !v.IsObject() {
		return nil, errors.New("signing: revocation list: not a JSON object")
	}
	l := &List{}
	if n, ok := v.Get("version").Number(); ok {
		l.Version = int(n)
	}
	l.Issuer, _ = v.Get("issuer").AsString()
	for _, f := range []struct {
		name string
		dst  *time.Time
	}{{"updated", &l.Updated}, {"next_update", &l.NextUpdate}} {
		s, ok := v.Get(f.name).AsString()
		if !ok {
			return nil, fmt.Errorf("signing: revocation list: %s is not a string", f.name)
		}
		if *f.dst, err = time.Parse(time.RFC3339, s); err != nil {
			return nil, fmt.Errorf("signing: revocation list: %s: %w", f.name, err)
		}
	}
	for _, f := range []struct {
		name string
		dst  *[]string
	}{{"revoked_kids", &l.RevokedKids}, {"revoked_jtis", &l.RevokedJTIs}} {
		list, problem := jsonread.StringArray(v.Get(f.name))
		if problem != "" {
			return nil, fmt.Errorf("signing: revocation list: %s %s", f.name, problem)
		}
		*f.dst = append(*f.dst, list...)
	}
	return l, nil
}

// JWSType is the JWS typ of a signed revocation list.
const JWSType = "adcp-gov-revocation+jws"

// VerifyJWS checks an operator's signed revocation list, in the
// flattened JWS JSON serialization ({"payload", "signatures": [{"protected",
// "signature"}]} or {"payload", "protected", "signature"}) or the compact
// one, against keys (the operator's JWKS), and returns its payload. The
// protected header must name typ adcp-gov-revocation+jws, alg EdDSA or
// ES256 and a kid of keys whose use is "sig" with key_ops "verify"; the
// payload's issuer must be issuer when issuer is not "".
func VerifyJWS(ctx context.Context, data []byte, source keys.Resolver, issuer string) (*List, error) {
	var protected, payload, sig string
	if t := strings.TrimSpace(string(data)); strings.Count(t, ".") == 2 && !strings.HasPrefix(t, "{") {
		parts := strings.Split(t, ".")
		protected, payload, sig = parts[0], parts[1], parts[2]
	} else {
		v, err := jsonread.Strict(data)
		if err != nil {
			return nil, fmt.Errorf("signing: revocation JWS: %w", err)
		}
		payload, _ = v.Get("payload").AsString()
		s := v
		if sigs := v.Get("signatures"); sigs.IsArray() {
			s = sigs.Index(0)
		}
		protected, _ = s.Get("protected").AsString()
		sig, _ = s.Get("signature").AsString()
	}
	if protected == "" || payload == "" || sig == "" {
		return nil, errors.New("signing: revocation JWS: protected, payload or signature missing")
	}
	hdrBytes, err := jsonread.Base64URL(protected)
	if err != nil {
		return nil, errors.New("signing: revocation JWS: protected header is not base64url")
	}
	hdr, err := jsonread.Strict(hdrBytes)
	if err != nil {
		return nil, fmt.Errorf("signing: revocation JWS header: %w", err)
	}
	typ, _ := hdr.Get("typ").AsString()
	algName, _ := hdr.Get("alg").AsString()
	kid, _ := hdr.Get("kid").AsString()
	if typ != JWSType {
		return nil, fmt.Errorf("signing: revocation JWS: typ %q is not %s", typ, JWSType)
	}
	var alg keys.Algorithm
	switch algName {
	case "EdDSA":
		alg = keys.Ed25519
	case "ES256":
		alg = keys.ECDSAP256
	default:
		return nil, fmt.Errorf("signing: revocation JWS: alg %q is not EdDSA or ES256", algName)
	}
	if crit := hdr.Get("crit"); crit.Present() {
		return nil, errors.New("signing: revocation JWS: crit extensions are not understood")
	}
	key, err := source.LookupKey(ctx, kid)
	if err != nil {
		return nil, fmt.Errorf("signing: revocation JWS: %w", err)
	}
	k := key.JWK
	if k.Use != "sig" || !slices.Contains(k.KeyOps, "verify") || k.Algorithm != algName {
		return nil, fmt.Errorf("signing: revocation JWS: key %q is not a verify key for %s", kid, algName)
	}
	pub, err := k.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("signing: revocation JWS: key %q: %w", kid, err)
	}
	sigBytes, err := jsonread.Base64URL(sig)
	if err != nil {
		return nil, errors.New("signing: revocation JWS: signature is not base64url")
	}
	if !alg.Verify(pub, []byte(protected+"."+payload), sigBytes) {
		return nil, errors.New("signing: revocation JWS: signature does not verify")
	}
	body, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return nil, errors.New("signing: revocation JWS: payload is not base64url")
	}
	l, err := ParseList(body)
	if err != nil {
		return nil, err
	}
	if issuer != "" && l.Issuer != issuer {
		return nil, fmt.Errorf("signing: revocation JWS: issuer %q is not %q", l.Issuer, issuer)
	}
	return l, nil
}

// Polling bounds of a revocation list (security.mdx "Revocation": floor 1
// minute, ceiling 30 minutes) and the grace multiplier of the fetch-failure
// safe default.
const (
	MinPoll = time.Minute
	MaxPoll = 30 * time.Minute
	grace   = 4
)

// Feed is a Source fed by polling the operator's list:
// Update records each successful refresh. The list is stale once now passes
// next_update + grace, grace being 4× the polling interval the list set
// (its next_update minus the time it was fetched, held within 1 to 30
// minutes); before the first Update it is stale. Safe for concurrent use.
type Feed struct {
	mu       sync.RWMutex
	list     *List
	revoked  map[string]bool
	deadline time.Time
	next     time.Time
}

// Update installs a list fetched (and verified) at fetchedAt.
func (r *Feed) Update(l *List, fetchedAt time.Time) {
	next := l.NextUpdate
	if next.Before(fetchedAt.Add(MinPoll)) {
		next = fetchedAt.Add(MinPoll)
	}
	if next.After(fetchedAt.Add(MaxPoll)) {
		next = fetchedAt.Add(MaxPoll)
	}
	interval := next.Sub(fetchedAt)
	revoked := make(map[string]bool, len(l.RevokedKids))
	for _, k := range l.RevokedKids {
		revoked[k] = true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list, r.revoked, r.next = l, revoked, next
	r.deadline = next.Add(grace * interval)
}

// NextPoll is when the list should be fetched again (its next_update,
// within the polling bounds); zero before the first Update.
func (r *Feed) NextPoll() time.Time {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.next
}

// Revoked implements Source.
func (r *Feed) Revoked(_ context.Context, keyID string, now time.Time) (bool, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.revoked[keyID] {
		return true, nil
	}
	if r.list == nil || now.After(r.deadline) {
		return false, ErrStale
	}
	return false, nil
}
