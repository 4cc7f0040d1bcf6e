package discovery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"golang.org/x/net/publicsuffix"

	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Capabilities makes the protocol-level get_adcp_capabilities call of the
// discovery chain's first step: over the agent's own transport (an MCP
// tools/call or an A2A skill invocation, not a GET of the agent URL), under
// the same SSRF rules as Fetcher. It returns the response's JSON object.
// runtime/buyer's clients provide one; CapabilitiesFunc adapts a function.
type Capabilities interface {
	GetAdCPCapabilities(ctx context.Context, agentURL string) ([]byte, error)
}

// CapabilitiesFunc is a function that is a Capabilities.
type CapabilitiesFunc func(ctx context.Context, agentURL string) ([]byte, error)

// GetAdCPCapabilities implements Capabilities.
func (f CapabilitiesFunc) GetAdCPCapabilities(ctx context.Context, agentURL string) ([]byte, error) {
	return f(ctx, agentURL)
}

// Surface is the signing surface keys are discovered for; it names the
// identity.key_origins purpose checked at step 7.
type Surface string

const (
	RequestSigning Surface = "request_signing"
	WebhookSigning Surface = "webhook_signing"
)

// AgentOptions configure an Agent source.
type AgentOptions struct {
	// Surface is RequestSigning (a seller resolving a buyer's keys) or
	// WebhookSigning (a buyer resolving a seller's); "" is RequestSigning.
	Surface Surface
	// Fetcher fetches brand.json and the JWKS; nil is a zero Fetcher.
	Fetcher *Fetcher
	// TTL bounds how long a resolution and its JWKS are used; 0 is
	// DefaultKeyTTL, held to MaxKeyTTL.
	TTL time.Duration
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Resolution is the outcome of the discovery chain for one agent.
type Resolution struct {
	AgentURL     string
	BrandJSONURL string
	// Entry is the agents[] entry whose url byte-equals AgentURL.
	Entry   wire.Lenient
	JWKSURI string
	// Delegated says the agent's eTLD+1 differs from brand.json's and an
	// authorized_operators[] entry delegates it.
	Delegated bool
}

// Agent is a keys.Resolver for one agent's keys, found from its URL
// alone by the chain of security.mdx "Discovering an agent's signing keys
// via brand_json_url": get_adcp_capabilities → identity.brand_json_url →
// brand.json (its eTLD+1 the agent's, or delegating it in
// authorized_operators[]) → the agents[] entry whose url byte-equals the
// agent URL → its jwks_uri (default: /.well-known/jwks.json at the agent's
// origin), checked against identity.key_origins → the JWKS. Each step
// fails with its request_signature_* code. A resolution is reused for the
// TTL; a failed one for 30 s. Safe for concurrent use.
type Agent struct {
	agentURL string
	caps     Capabilities
	o        AgentOptions

	mu       sync.Mutex
	res      *Resolution
	jwks     *JWKSEndpoint
	resolved time.Time
	failed   time.Time
	failErr  error
}

// negativeTTL is how long a failed resolution is remembered (the spec
// allows at most 60 s, so a fixed misconfiguration is picked up quickly).
const negativeTTL = 30 * time.Second

// NewAgent returns the key source of the agent at agentURL.
func NewAgent(agentURL string, caps Capabilities, o AgentOptions) *Agent {
	if o.Surface == "" {
		o.Surface = RequestSigning
	}
	if o.Fetcher == nil {
		o.Fetcher = &Fetcher{}
	}
	if o.TTL <= 0 {
		o.TTL = DefaultKeyTTL
	}
	if o.TTL > MaxKeyTTL {
		o.TTL = MaxKeyTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Agent{agentURL: agentURL, caps: caps, o: o}
}

// LookupKey implements keys.Resolver.
func (a *Agent) LookupKey(ctx context.Context, kid string) (*keys.Key, error) {
	_, jwks, err := a.resolve(ctx)
	if err != nil {
		return nil, err
	}
	return jwks.LookupKey(ctx, kid)
}

// Resolve runs (or reuses) the discovery chain.
func (a *Agent) Resolve(ctx context.Context) (*Resolution, error) {
	r, _, err := a.resolve(ctx)
	return r, err
}

func (a *Agent) resolve(ctx context.Context) (*Resolution, *JWKSEndpoint, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.o.Now()
	if a.res != nil && now.Sub(a.resolved) < a.o.TTL {
		return a.res, a.jwks, nil
	}
	if a.failErr != nil && now.Sub(a.failed) < negativeTTL {
		return nil, nil, a.failErr
	}
	r, err := a.chain(ctx)
	if err != nil {
		a.failed, a.failErr = now, err
		return nil, nil, err
	}
	if a.jwks == nil || a.jwks.URL() != r.JWKSURI {
		a.jwks = NewJWKSEndpoint(r.JWKSURI, r.AgentURL, JWKSOptions{Fetcher: a.o.Fetcher, TTL: a.o.TTL, Now: a.o.Now})
	}
	a.res, a.resolved, a.failErr = r, now, nil
	return r, a.jwks, nil
}

func discoveryError(code signing.Code, where, format string, args ...any) *signing.Rejection {
	return &signing.Rejection{Code: code, Step: "7", Where: where, Reason: fmt.Sprintf(format, args...)}
}

// strict reads a counterparty document with runtime/wire's strict reader.
func strict(data []byte) (wire.Lenient, error) {
	if err := wire.Valid(data); err != nil {
		return nil, err
	}
	return wire.ParseLenient(data)
}

// chain is the eight steps.
func (a *Agent) chain(ctx context.Context) (*Resolution, error) {
	agent := a.agentURL
	if !strings.HasPrefix(agent, "https://") {
		return nil, discoveryError(signing.CodeCapabilitiesUnreachable, "agent_url", "the agent URL is not https")
	}
	// Step 1: the agent's capabilities.
	raw, err := a.caps.GetAdCPCapabilities(ctx, agent)
	if err != nil {
		return nil, &signing.Rejection{Code: signing.CodeCapabilitiesUnreachable, Step: "7", Where: "get_adcp_capabilities", Err: err}
	}
	caps, err := strict(raw)
	if err != nil || !caps.IsObject() {
		return nil, &signing.Rejection{Code: signing.CodeCapabilitiesUnreachable, Step: "7", Where: "get_adcp_capabilities", Reason: "the response is not a strict JSON object", Err: err}
	}
	// Step 2: identity.brand_json_url, https.
	identity := caps.Get("identity")
	brandURL, ok := identity.Get("brand_json_url").AsString()
	if !ok || !strings.HasPrefix(brandURL, "https://") {
		return nil, discoveryError(signing.CodeBrandJSONURLMissing, "identity.brand_json_url", "absent or not https")
	}
	// Step 3: the eTLD+1 binding (delegation is read from brand.json below).
	agentAuth, err1 := canonicalAuthority(agent)
	brandAuth, err2 := canonicalAuthority(brandURL)
	if err1 != nil || err2 != nil {
		return nil, discoveryError(signing.CodeBrandOriginMismatch, "brand_json_url", "the agent URL or brand_json_url has no canonical host")
	}
	agentSite, errA := publicsuffix.EffectiveTLDPlusOne(hostOf(agentAuth))
	brandSite, errB := publicsuffix.EffectiveTLDPlusOne(hostOf(brandAuth))
	sameSite := errA == nil && errB == nil && agentSite == brandSite
	// Step 4: brand.json, strict, no redirects, 256 KiB.
	resp, err := a.o.Fetcher.Get(ctx, brandURL, MaxBrandJSONBytes, nil)
	if err != nil {
		code := signing.CodeBrandJSONUnreachable
		var fe *FetchError
		if errors.As(err, &fe) && fe.Kind == TooLarge {
			code = signing.CodeBrandJSONMalformed
		}
		return nil, &signing.Rejection{Code: code, Step: "7", Where: "brand.json", Err: err}
	}
	brand, err := strict(resp.Body)
	if err != nil || !brand.IsObject() {
		return nil, &signing.Rejection{Code: signing.CodeBrandJSONMalformed, Step: "7", Where: "brand.json", Reason: "not a strict JSON object", Err: err}
	}
	res := &Resolution{AgentURL: agent, BrandJSONURL: brandURL}
	if !sameSite {
		if errA != nil || !delegates(brand, agentSite, a.o.Now()) {
			return nil, discoveryError(signing.CodeBrandOriginMismatch, "brand_json_url",
				"the agent's site %q is not brand.json's %q, nor delegated by authorized_operators[]", agentSite, brandSite)
		}
		res.Delegated = true
	}
	// Step 5: the one agents[] entry whose url byte-equals the agent URL.
	var matches []wire.Lenient
	for _, e := range agentEntries(brand) {
		if e.Get("url").StringIs(agent) {
			matches = append(matches, e)
		}
	}
	switch len(matches) {
	case 0:
		return nil, discoveryError(signing.CodeAgentNotInBrandJSON, "brand.json agents[]", "no entry's url is byte-equal to the agent URL")
	case 1:
		res.Entry = matches[0]
	default:
		return nil, discoveryError(signing.CodeBrandJSONAmbiguous, "brand.json agents[]", "%d entries have the agent URL", len(matches))
	}
	// Step 6: jwks_uri, defaulting to the agent origin's well-known JWKS.
	if j := res.Entry.Get("jwks_uri"); j.Present() && !j.IsString() {
		return nil, discoveryError(signing.CodeBrandJSONMalformed, "brand.json agents[].jwks_uri", "not a string")
	}
	if u, ok := res.Entry.Get("jwks_uri").AsString(); ok && u != "" {
		if !strings.HasPrefix(u, "https://") {
			return nil, discoveryError(signing.CodeJWKSUntrusted, "jwks_uri", "not https")
		}
		res.JWKSURI = u
	} else {
		res.JWKSURI = "https://" + agentAuth + "/.well-known/jwks.json"
	}
	// Step 7: identity.key_origins for this surface.
	if err := checkKeyOrigin(caps, a.o.Surface, res.JWKSURI); err != nil {
		return nil, err
	}
	return res, nil
}

// agentEntries collects the agents[] of brand.json: top level, the house's,
// and each inline brand's.
func agentEntries(brand wire.Lenient) []wire.Lenient {
	var out []wire.Lenient
	add := func(arr wire.Lenient) {
		arr.Elems(func(e wire.Lenient) bool {
			if e.IsObject() {
				out = append(out, e)
			}
			return true
		})
	}
	add(brand.Get("agents"))
	add(brand.Get("house").Get("agents"))
	brand.Get("brands").Elems(func(b wire.Lenient) bool {
		add(b.Get("agents"))
		return true
	})
	return out
}

// delegates reports an authorized_operators[] entry (top level or the
// house's) whose domain has the agent's eTLD+1 and whose validity window
// holds now (brand-json.mdx "Authorized Operator Resolution").
func delegates(brand wire.Lenient, site string, now time.Time) bool {
	found := false
	check := func(ops wire.Lenient) {
		ops.Elems(func(op wire.Lenient) bool {
			d, ok := op.Get("domain").AsString()
			if !ok {
				return true
			}
			s, err := publicsuffix.EffectiveTLDPlusOne(strings.TrimSuffix(strings.ToLower(d), "."))
			if err != nil || s != site {
				return true
			}
			if from, ok := op.Get("valid_from").AsString(); ok {
				if t, err := time.Parse(time.RFC3339, from); err != nil || now.Before(t) {
					return true
				}
			}
			if until, ok := op.Get("valid_until").AsString(); ok {
				if t, err := time.Parse(time.RFC3339, until); err != nil || !now.Before(t) {
					return true
				}
			}
			found = true
			return false
		})
	}
	check(brand.Get("authorized_operators"))
	check(brand.Get("house").Get("authorized_operators"))
	return found
}

// checkKeyOrigin is step 7 for one surface: the jwks_uri's host must be
// the origin identity.key_origins declares for it, and an agent that
// declares that signing posture must declare the origin. (Only the
// surface's own purpose is compared: a governance origin is separate by
// rule, so it can never equal a request-signing jwks_uri.)
func checkKeyOrigin(caps wire.Lenient, s Surface, jwksURI string) error {
	declared, hasOrigin := caps.Get("identity").Get("key_origins").Get(string(s)).AsString()
	posture := false
	switch s {
	case RequestSigning:
		rs := caps.Get("request_signing")
		nonEmpty := func(k string) bool {
			n := 0
			rs.Get(k).Elems(func(wire.Lenient) bool { n++; return false })
			return n > 0
		}
		posture = nonEmpty("supported_for") || nonEmpty("required_for")
	case WebhookSigning:
		posture = string(caps.Get("webhook_signing").Get("supported").Raw()) == "true"
	}
	if !hasOrigin || declared == "" {
		if posture {
			return discoveryError(signing.CodeKeyOriginMissing, "identity.key_origins."+string(s), "the agent declares %s but no key origin for it", s)
		}
		return nil
	}
	want, err1 := canonicalAuthority(declared)
	got, err2 := canonicalAuthority(jwksURI)
	if err1 != nil || err2 != nil || want != got {
		return discoveryError(signing.CodeKeyOriginMismatch, "identity.key_origins."+string(s), "jwks_uri is on %q, the declared origin is %q", got, want)
	}
	return nil
}
