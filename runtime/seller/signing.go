package seller

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/replay"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"

	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// SignedRequests configures the seller's verification of RFC 9421 request
// signatures (security.mdx "Signed Requests (Transport Layer)"): which
// calls it verifies, shadows or requires signatures on, and where the
// signers' keys, the replay store and the revocation list come from. The
// profile is the one of the spec version the server serves (signing's
// RequestProfile), never chosen from a request.
type SignedRequests struct {
	// Policy lists the operations and JSON-RPC protocol methods
	// signatures are verified for (supported_for), shadowed on (warn_for)
	// or required on (required_for, for callers without another valid
	// credential). It is advertised as get_adcp_capabilities'
	// request_signing, as the version's schema defines it (protocol
	// methods from 3.1).
	Policy signing.OperationPolicy
	// CoversContentDigest is a 3.0/3.1 endpoint's content-digest policy
	// ("" means "either"); 3.2 requires content-digest, and takes nothing
	// else.
	CoversContentDigest signing.DigestPolicy
	// Keys resolves a signature's keyid: keys.Static for
	// counterparties onboarded with their JWKS, discovery's JWKS and
	// brand_json_url sources for keys found from an agent's URL.
	Keys keys.Resolver
	// Replay remembers the (keyid, nonce) of every accepted signature;
	// nil keeps them in this process (replay.Local). Replicas
	// behind one address must share one (pgstore's Nonces), or a request
	// replayed to another replica is accepted.
	Replay replay.Ledger
	// ReplayLimit is the per-keyid cap of live pairs, past which a signer
	// is refused with request_signature_rate_abuse; 0 is 1,000,000.
	ReplayLimit int
	// Revocation answers whether a keyid is revoked (checklist step 9);
	// nil revokes nothing.
	Revocation revocation.Source
	// Scheme is the scheme buyers use when TLS ends before this server
	// (the @target-uri they sign); "" is "https".
	Scheme string
	// Principal names the principal a verified signer's call runs as when
	// it presented no other valid credential; ok false refuses such a call
	// as unauthenticated. nil runs it as the signer's agent URL (the key
	// source's, never the request's), or "keyid:<kid>" when the source
	// names none.
	Principal func(*signing.VerifiedSigner) (p Principal, ok bool)
	// AllowUnsignedWebhookAuthentication accepts an unsigned request that
	// registers a webhook authentication block when another credential
	// authenticated it, which security.mdx ("Downgrade and injection
	// resistance") forbids a seller that supports request signing. It
	// exists for sandboxes answering compliance storyboards that send such
	// registrations over a bearer (@adcp/sdk 6.11's media_buy_seller),
	// beside a strict endpoint the signing storyboard grades; never set it
	// in production.
	AllowUnsignedWebhookAuthentication bool
	// Now is the verifier's clock; nil is the server's.
	Now func() time.Time
}

// setupSigning builds the server's verifier from Options.SignedRequests.
func (s *Server) setupSigning() error {
	sr := s.cfg.SignedRequests
	if sr == nil {
		return nil
	}
	if sr.Keys == nil {
		return errors.New("seller: SignedRequests.Keys is nil: nothing could verify a signature")
	}
	if err := sr.Policy.Validate(); err != nil {
		return fmt.Errorf("seller: SignedRequests.Policy: %w", err)
	}
	p, err := signing.RequestProfile(s.spec.Version())
	if err != nil {
		return fmt.Errorf("seller: SignedRequests: %w", err)
	}
	if sr.CoversContentDigest != "" && sr.CoversContentDigest != p.Digest() {
		if p, err = p.WithDigest(sr.CoversContentDigest); err != nil {
			return fmt.Errorf("seller: SignedRequests.CoversContentDigest: %w", err)
		}
	}
	if _, err := (signing.Capability{Supported: true, CoversContentDigest: p.Digest(), Policy: sr.Policy}).Block(s.spec.Version()); err != nil {
		return fmt.Errorf("seller: SignedRequests: %w", err)
	}
	now := sr.Now
	if now == nil {
		now = s.now
	}
	v, err := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: sr.Keys, Replay: sr.Replay, ReplayLimit: sr.ReplayLimit,
		Revocation: sr.Revocation, Now: now, Scheme: sr.Scheme})
	if err != nil {
		return fmt.Errorf("seller: SignedRequests: %w", err)
	}
	s.verifier = v
	return nil
}

// SigningCapability is the request_signing capability the server
// advertises (signing.Capability.Block writes it), and false when it
// verifies no signatures.
func (s *Server) SigningCapability() (signing.Capability, bool) {
	if s.verifier == nil {
		return signing.Capability{}, false
	}
	return signing.Capability{Supported: true, CoversContentDigest: s.verifier.Profile().Digest(), Policy: s.cfg.SignedRequests.Policy}, true
}

// Admission is who an HTTP request is admitted as: the principal its
// calls run as, and the verified signer of its RFC 9421 signature (nil
// when it was not signed, or proceeds on another credential).
type Admission struct {
	Principal Principal
	Signer    *signing.VerifiedSigner
}

// Admit authenticates an HTTP request to one of the server's endpoints,
// body being its exact bytes (ReadRPCBody), before anything decodes it
// further; transports call it instead of Authorize. tool is the tool the
// request calls for Authorize's rule on public tools. With SignedRequests
// set, the signature is checked first (security.mdx "Verifier checklist
// (requests)", "Composition with fallback authenticators"; see
// signing.Verifier.Decide): the call's mode is the policy's for the
// operation or protocol method the body names (signing.CallOf), and the
// fallback is whether the Authenticator accepted another credential. Then:
//
//   - a signature refused (or missing where the call needs one, a body
//     registering a webhook authentication block included) is HTTP 401
//     with WWW-Authenticate: Signature error="<code>" and nothing more of
//     why (the reason goes to the log), whatever else the request carried;
//   - a verified signature admits the request, as the principal of its
//     other valid credential, else as Principal says;
//   - an unsigned request, or one in warn_for whose signature failed,
//     rests on the Authenticator as Authorize decides (the failure logged);
//   - a replay store or revocation source that failed is HTTP 503.
//
// Nothing of the server's state changes for a refused request.
//
// A JSON-RPC batch is judged by the strictest mode of its elements
// (callsOf), so no call is weaker in a batch than alone; the gate then
// refuses the batch (CheckRPCBody).
func (s *Server) Admit(r *http.Request, body []byte, tool string) (Admission, *AuthFailure) {
	return s.admit(r, body, tool, callsOf(body))
}

// AdmitOperation is Admit for an endpoint whose URL names the operation,
// one per operation (the signed-requests runner's grading endpoints): the
// policy's mode is the operation's, whatever the body holds.
func (s *Server) AdmitOperation(r *http.Request, body []byte, operation string) (Admission, *AuthFailure) {
	return s.admit(r, body, operation, []signing.Invocation{{Operation: operation}})
}

func (s *Server) admit(r *http.Request, body []byte, tool string, calls []signing.Invocation) (Admission, *AuthFailure) {
	p, fail := s.authorize(r, tool)
	if bytes.Contains(body, []byte(`"authentication"`)) && signing.CarriesWebhookAuthentication(body) {
		// security.mdx "Downgrade and injection resistance": sellers MUST
		// log every registration of the legacy webhook scheme.
		s.log.Warn("adcp: the request registers a webhook with legacy authentication (HMAC or Bearer)", "tool", tool)
	}
	if s.verifier == nil {
		return Admission{Principal: p}, s.logRefusal(tool, fail)
	}
	fallback := fail == nil && !p.Anonymous()
	if fallback && s.cfg.SignedRequests.AllowUnsignedWebhookAuthentication &&
		r.Header.Get("Signature") == "" && r.Header.Get("Signature-Input") == "" {
		// Unsigned with a valid credential: only the webhook rule would
		// refuse it, and the sandbox waives it.
		return Admission{Principal: p}, nil
	}
	mode := strictestMode(&s.cfg.SignedRequests.Policy, calls)
	d := s.decide(r, body, tool, mode, fallback)
	switch d.Verdict {
	case signing.Accept:
		if d.Signer == nil {
			return Admission{Principal: p}, s.logRefusal(tool, fail)
		}
		if fallback {
			return Admission{Principal: p, Signer: d.Signer}, nil
		}
		sp, ok := s.signerPrincipal(d.Signer)
		if !ok {
			return Admission{}, s.logRefusal(tool, s.unauthenticated(errors.Join(ErrBadCredentials,
				fmt.Errorf("the signer %s (keyid %q) maps to no principal", d.Signer.AgentURL, d.Signer.KeyID))))
		}
		return Admission{Principal: sp, Signer: d.Signer}, nil
	case signing.AcceptWithWarning, signing.Unauthenticated:
		if d.Err != nil {
			s.log.Warn("adcp: request signature failed (warn_for)", "tool", tool, "mode", mode.String(), "code", string(signing.CodeOf(d.Err)), "reason", d.Err.Error())
		}
		return Admission{Principal: p}, s.logRefusal(tool, fail)
	case signing.Fail:
		s.log.ErrorContext(r.Context(), "adcp: request signature could not be checked", "tool", tool, "err", fmt.Sprint(d.Err))
		return Admission{}, &AuthFailure{Status: http.StatusServiceUnavailable, Err: d.Err,
			Error: s.newError("SERVICE_UNAVAILABLE", "The request signature could not be checked now: retry later")}
	}
	return Admission{}, s.signatureFailure(tool, d.Err)
}

// signatureFailure is the 401 of a refused signature: the spec's code in
// the challenge and in the AdCP error's message, nothing else of why.
func (s *Server) signatureFailure(tool string, err error) *AuthFailure {
	code := signing.CodeOf(err)
	if code == "" {
		code = signing.CodeInvalid
	}
	s.log.Info("adcp: request signature refused", "tool", tool, "code", string(code), "reason", fmt.Sprint(err))
	adcpCode, msg := s.pickCode("AUTH_INVALID", "AUTH_REQUIRED"), "Request signature refused: "+string(code)
	switch code {
	case signing.CodeRequired:
		adcpCode = s.pickCode("AUTH_MISSING", "AUTH_REQUIRED")
	case signing.CodeBodyMalformed:
		// security.mdx step 14: the signature is valid, the body repeats
		// an object key. The challenge carries the code and nothing more
		// ("MUST NOT echo internal verification details beyond the stable
		// code"); the AdCP error says what to correct, as the unsigned
		// path's INVALID_REQUEST does (which names the key's pointer).
		adcpCode = s.pickCode("INVALID_REQUEST")
		msg += ": the body has a duplicate key: send each key once, and sign the bytes you send"
	}
	return &AuthFailure{
		Status:    http.StatusUnauthorized,
		Challenge: signing.Challenge(code),
		Error:     s.newError(adcpCode, msg),
		Err:       err,
	}
}

// signerPrincipal is the principal a verified signer's call runs as.
func (s *Server) signerPrincipal(sg *signing.VerifiedSigner) (Principal, bool) {
	if f := s.cfg.SignedRequests.Principal; f != nil {
		p, ok := f(sg)
		return p, ok && !p.Anonymous()
	}
	if sg.AgentURL != "" {
		return Principal{ID: sg.AgentURL}, true
	}
	return Principal{ID: "keyid:" + sg.KeyID}, true
}

type signerKey struct{}

// WithSigner returns ctx carrying the verified signer of the request a call
// came in. Transports call it; handlers read it with SignerFrom.
func WithSigner(ctx context.Context, sg *signing.VerifiedSigner) context.Context {
	return context.WithValue(ctx, signerKey{}, sg)
}

// SignerFrom returns the verified RFC 9421 signer (keyid, agent URL) of the
// request the call in ctx came in, and false when it was not signed: who
// sent it, beside the principal it runs as (PrincipalFrom).
func SignerFrom(ctx context.Context) (*signing.VerifiedSigner, bool) {
	sg, ok := ctx.Value(signerKey{}).(*signing.VerifiedSigner)
	return sg, ok && sg != nil
}

// signingCapabilities adds to the automatic get_adcp_capabilities answer
// what the server verifies (request_signing) and where its keys are found
// (identity.brand_json_url, from 3.0.5), each where the base has none.
func (s *Server) signingCapabilities(out []byte) ([]byte, error) {
	v := wire.Lenient(out)
	var err error
	if c, ok := s.SigningCapability(); ok && !v.Get("request_signing").Present() {
		block, berr := c.Block(s.spec.Version())
		if berr != nil {
			return nil, berr
		}
		if out, err = withMember(out, "request_signing", block); err != nil {
			return nil, err
		}
	}
	if u := s.cfg.BrandJSONURL; u != "" && identityHasBrandJSONURL(s.spec.Version()) {
		id := []byte(wire.Lenient(out).Get("identity"))
		if id == nil {
			id = []byte("{}")
		}
		if !wire.Lenient(id).Get("brand_json_url").Present() {
			if id, err = withMember(id, "brand_json_url", wire.AppendQuoted(nil, u)); err != nil {
				return nil, err
			}
			if out, err = withMember(out, "identity", id); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// identityHasBrandJSONURL reports a version whose capabilities admit
// identity.brand_json_url: declared from 3.1; from 3.0.5 the 3.0 identity
// block is open (additionalProperties) so that 3.0 agents advertise it
// ahead of the schema (3.0.5's changelog), and the 3.0 compliance
// storyboards (webhook_emission) find the keys there.
// A release without its patch ("3.0") is its latest.
func identityHasBrandJSONURL(version string) bool {
	var major, minor, patch int
	n, _ := fmt.Sscanf(version, "%d.%d.%d", &major, &minor, &patch)
	switch {
	case n < 2:
		return false
	case n == 2:
		patch = 5
	}
	return major > 3 || major == 3 && (minor >= 1 || patch >= 5)
}
