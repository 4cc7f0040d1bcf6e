package signing

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/replay"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Profile limits (security.mdx "AdCP RFC 9421 profile").
const (
	maxWindow     = 300 * time.Second // expires − created
	skew          = 60 * time.Second  // clock skew, both bounds
	minNonceBytes = 16                // ≥ 128 bits
	defaultLabel  = "sig1"
)

// Default caps on what a verifier reads before any work.
const (
	// DefaultMaxSignatureHeaderBytes caps each of Signature-Input, Signature and
	// Content-Digest.
	DefaultMaxSignatureHeaderBytes = 8 << 10
	// DefaultMaxSignedBodyBytes caps the body of a signed message; a larger one is
	// refused before any digest or duplicate-key work.
	DefaultMaxSignedBodyBytes = 1 << 20
)

// ErrUnsigned is what Verify returns for a message with neither Signature
// nor Signature-Input: there is nothing to verify (Decide says whether
// that is acceptable).
var ErrUnsigned = errors.New("signing: the message is not signed")

// VerifierOptions configure a Verifier.
type VerifierOptions struct {
	// Profile is the endpoint's profile (RequestProfile, WebhookProfile).
	Profile Profile
	// Keys resolves keyids (keys.Static, or discovery's JWKS and agent
	// sources).
	Keys keys.Resolver
	// Replay is the replay ledger; nil is a new replay.Local for this
	// verifier alone (webhook profile: with the 10,000,000 aggregate cap).
	Replay replay.Ledger
	// ReplayLimit is the per-keyid cap; 0 is Profile.DefaultReplayLimit().
	ReplayLimit int
	// Revocation answers step 9; nil revokes nothing and is never stale.
	Revocation revocation.Source
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// MaxHeaderBytes caps each signature header; 0 is
	// DefaultMaxSignatureHeaderBytes.
	MaxHeaderBytes int
	// MaxBodyBytes caps a signed message's body; 0 is DefaultMaxSignedBodyBytes.
	MaxBodyBytes int
	// Scheme is the scheme clients use when TLS ends before this server
	// (VerifyRequest); "" is "https".
	Scheme string
}

// Verifier runs the AdCP verifier checklist (security.mdx "Verifier
// checklist (requests)", or "Verifier checklist for webhooks" with a
// webhook profile) over received messages. It is safe for concurrent use.
type Verifier struct {
	o     VerifierOptions
	limit int
}

// NewVerifier checks the options and returns a Verifier.
func NewVerifier(o VerifierOptions) (*Verifier, error) {
	if o.Profile.isZero() {
		return nil, errors.New("signing: VerifierOptions.Profile is not set (RequestProfile or WebhookProfile)")
	}
	if o.Keys == nil {
		return nil, errors.New("signing: VerifierOptions.Keys is not set")
	}
	if o.Replay == nil {
		total := 0
		if o.Profile.kind == Webhook {
			total = 10_000_000
		}
		o.Replay = replay.NewLocal(total)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxSignatureHeaderBytes
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxSignedBodyBytes
	}
	v := &Verifier{o: o, limit: o.ReplayLimit}
	if v.limit <= 0 {
		v.limit = o.Profile.DefaultReplayLimit()
	}
	return v, nil
}

// Profile is the verifier's profile.
func (v *Verifier) Profile() Profile { return v.o.Profile }

// VerifyRequest verifies a request a server received, body being its exact
// bytes (read before any JSON parsing): see MessageFromRequest and Verify.
func (v *Verifier) VerifyRequest(r *http.Request, body []byte) (*VerifiedSigner, error) {
	return v.Verify(r.Context(), MessageFromRequest(r, body, v.o.Scheme))
}

// sigParams are the signature parameters of the label processed.
type sigParams struct {
	label      string
	components []string
	paramsText []byte // the serialized inner list, the @signature-params value
	created    int64
	expires    int64
	nonce      string
	keyID      string
	alg        keys.Algorithm
	tag        string
	have       [6]bool // created, expires, nonce, keyid, alg, tag
	sig        []byte
}

// Verify runs the checklist on m. It returns the verified signer, ErrUnsigned
// when m carries neither signature header, a *Rejection with the spec's code
// for a signature that fails, or another error when a store or the
// revocation source failed (answer it as a server error, not a 401).
func (v *Verifier) Verify(ctx context.Context, m *Message) (*VerifiedSigner, error) {
	p := v.o.Profile
	code := p.code
	now := v.o.Now()
	inputLines := headerValues(m.Header, "Signature-Input")
	sigLines := headerValues(m.Header, "Signature")
	if len(inputLines) == 0 && len(sigLines) == 0 {
		return nil, ErrUnsigned
	}
	// Pre-check: the two headers are a bound pair.
	if len(inputLines) == 0 || len(sigLines) == 0 {
		missing := "Signature-Input"
		if len(sigLines) == 0 {
			missing = "Signature"
		}
		return nil, fail(code(CodeHeaderMalformed), "1", missing, "Signature and Signature-Input are a pair; %s is missing", missing)
	}
	input, _ := fieldValue(m.Header, "Signature-Input")
	sigField, _ := fieldValue(m.Header, "Signature")
	for _, h := range [...]struct{ name, val string }{{"Signature-Input", input}, {"Signature", sigField}} {
		if len(h.val) > v.o.MaxHeaderBytes {
			return nil, fail(code(CodeHeaderMalformed), "1", h.name, "%d bytes, over the %d-byte cap", len(h.val), v.o.MaxHeaderBytes)
		}
	}
	if len(m.Body) > v.o.MaxBodyBytes {
		return nil, fail(code(CodeDigestMismatch), "1", "body", "%d bytes, over the %d-byte cap; refused before any digest work", len(m.Body), v.o.MaxBodyBytes)
	}

	// Step 1: parse.
	sp, err := v.parse(input, sigField)
	if err != nil {
		return nil, err
	}
	if hasNonASCIIHost(m.URL) || !isASCII(m.Authority) {
		return nil, fail(code(CodeHeaderMalformed), "1", "@authority", "the host is not ASCII; the profile requires A-labels on the wire")
	}
	var digestMembers []sfMember
	for _, c := range sp.components {
		if c[0] == '@' {
			continue
		}
		vals := headerValues(m.Header, c)
		if len(vals) > 1 && (c == compType || c == compDigest) {
			return nil, fail(code(CodeHeaderMalformed), "1", c, "covered field %s has %d field lines; it must be single-valued", c, len(vals))
		}
		if len(vals) == 0 {
			continue // step 6 reports it
		}
		val, _ := fieldValue(m.Header, c)
		switch c {
		case compType:
			if hasTopLevelComma(val) {
				return nil, fail(code(CodeHeaderMalformed), "1", c, "Content-Type holds more than one value")
			}
		case compDigest:
			if len(val) > v.o.MaxHeaderBytes {
				return nil, fail(code(CodeHeaderMalformed), "1", c, "%d bytes, over the %d-byte cap", len(val), v.o.MaxHeaderBytes)
			}
			if digestMembers, err = checkDigestField(val, p.encoding); err != nil {
				return nil, &Rejection{Code: code(CodeHeaderMalformed), Step: "1", Where: "Content-Digest", Reason: "not an RFC 9530 dictionary of one value per algorithm", Err: err}
			}
		}
	}

	// Step 2: every parameter present, and a usable nonce.
	for i, name := range [...]string{"created", "expires", "nonce", "keyid", "alg", "tag"} {
		if !sp.have[i] {
			return nil, fail(code(CodeParamsIncomplete), "2", name, "signature parameter %s is absent", name)
		}
	}
	if strings.Contains(sp.nonce, "=") {
		return nil, fail(code(CodeHeaderMalformed), "2", "nonce", "the nonce is padded; it must be unpadded base64url")
	}
	if n, err := base64.RawURLEncoding.DecodeString(sp.nonce); err != nil || len(n) < minNonceBytes {
		return nil, fail(code(CodeHeaderMalformed), "2", "nonce", "the nonce is not base64url of at least %d bytes", minNonceBytes)
	}
	// Step 3: tag.
	if sp.tag != p.Tag() {
		return nil, fail(code(CodeTagInvalid), "3", "tag", "tag %q is not %q", sp.tag, p.Tag())
	}
	// Step 4: alg allowlist.
	if !sp.alg.Allowed() {
		return nil, fail(code(CodeAlgNotAllowed), "4", "alg", "alg %q is not %s or %s", sp.alg, keys.Ed25519, keys.ECDSAP256)
	}
	// Step 5: window.
	created, expires := time.Unix(sp.created, 0), time.Unix(sp.expires, 0)
	switch {
	case sp.expires <= sp.created:
		return nil, fail(code(CodeWindowInvalid), "5", "expires", "expires %d is not after created %d", sp.expires, sp.created)
	case created.After(now.Add(skew)):
		return nil, fail(code(CodeWindowInvalid), "5", "created", "created %d is more than 60 s ahead of now (%d)", sp.created, now.Unix())
	case expires.Before(now.Add(-skew)):
		return nil, fail(code(CodeWindowInvalid), "5", "expires", "expired at %d, more than 60 s before now (%d)", sp.expires, now.Unix())
	case expires.Sub(created) > maxWindow:
		return nil, fail(code(CodeWindowInvalid), "5", "expires", "window of %d s is over 300 s", sp.expires-sp.created)
	}
	// Step 6: covered components.
	if err := v.checkComponents(sp.components, m); err != nil {
		return nil, err
	}

	// Step 7: the key.
	key, err := v.o.Keys.LookupKey(ctx, sp.keyID)
	if err != nil {
		return nil, v.keyError(sp.keyID, err)
	}
	if key == nil || key.JWK == nil || key.JWK.KeyID != sp.keyID {
		return nil, fail(code(CodeKeyUnknown), "7", "keyid", "the key source did not resolve keyid %q", sp.keyID)
	}
	// Step 8: its purpose.
	if e := checkPurpose(key.JWK, p, sp.alg); e != nil {
		return nil, e
	}
	// Step 9: revocation, before any cryptography.
	if v.o.Revocation != nil {
		revoked, err := v.o.Revocation.Revoked(ctx, sp.keyID, now)
		switch {
		case revoked:
			return nil, fail(code(CodeKeyRevoked), "9", "keyid", "keyid %q is in revoked_kids", sp.keyID)
		case errors.Is(err, revocation.ErrStale):
			return nil, &Rejection{Code: code(CodeRevocationStale), Step: "9", Where: "revocation list", Err: err}
		case err != nil:
			return nil, fmt.Errorf("signing: revocation source: %w", err)
		}
	}
	// Step 9a: the per-keyid cap, before any cryptography.
	seen, err := v.o.Replay.Check(ctx, sp.keyID, sp.nonce, v.limit, now)
	if err != nil {
		return nil, fmt.Errorf("signing: replay store: %w", err)
	}
	if seen.AtLimit {
		return nil, fail(code(CodeRateAbuse), "9a", "keyid", "keyid %q holds its cap of %d live nonces", sp.keyID, v.limit)
	}

	// Step 10: canonicalize, build the base, verify.
	base, err := messageBase(sp, m, make([]byte, 0, 512))
	if err != nil {
		return nil, v.remap(err, "10")
	}
	pub, err := key.JWK.PublicKey()
	if err != nil { // checkPurpose has refused such a key already
		return nil, fail(code(CodeKeyPurposeInvalid), "8", "keyid", "%v", err)
	}
	if !sp.alg.Verify(pub, base, sp.sig) {
		return nil, fail(code(CodeInvalid), "10", "Signature", "the signature does not verify over the signature base with keyid %q", sp.keyID)
	}
	// Step 11: the body's digest.
	if digestMembers != nil && !digestMatches(digestMembers, p.encoding, m.Body) {
		return nil, fail(code(CodeDigestMismatch), "11", "Content-Digest", "Content-Digest does not match the %d-byte body", len(m.Body))
	}
	// Step 12: replay.
	if seen.Seen {
		return nil, fail(code(CodeReplayed), "12", "nonce", "(keyid %q, nonce) was seen within the window", sp.keyID)
	}
	// Step 13: burn the nonce, atomically with the cap.
	res, err := v.o.Replay.Insert(ctx, sp.keyID, sp.nonce, replayExpiry(expires, now), v.limit, now)
	if err != nil {
		return nil, fmt.Errorf("signing: replay store: %w", err)
	}
	switch res {
	case replay.Seen:
		return nil, fail(code(CodeReplayed), "13", "nonce", "(keyid %q, nonce) was admitted concurrently", sp.keyID)
	case replay.Limited:
		return nil, fail(code(CodeRateAbuse), "13", "keyid", "keyid %q reached its cap of %d live nonces", sp.keyID, v.limit)
	}
	// Step 14: no duplicate keys in the body (after the nonce is burned).
	if err := wire.DuplicateKey(m.Body); err != nil {
		var de *wire.DecodeError
		where := "body"
		if errors.As(err, &de) {
			where = "body " + sanitizeKeyPointer(de.Pointer)
		}
		return nil, fail(code(CodeBodyMalformed), "14", where, "the body repeats a key; parsers would disagree on its value")
	}
	return &VerifiedSigner{
		KeyID:      sp.keyID,
		AgentURL:   key.AgentURL,
		Algorithm:  sp.alg,
		Label:      sp.label,
		Nonce:      sp.nonce,
		Created:    created,
		Expires:    expires,
		VerifiedAt: now,
	}, nil
}

// messageBase canonicalizes m's URL and authority (step 10's @target-uri
// and @authority rules) and appends the signature base of sp to b.
func messageBase(sp *sigParams, m *Message, b []byte) ([]byte, error) {
	target, authority, err := CanonicalURL(m.URL)
	if err != nil {
		return nil, err
	}
	if m.Authority != "" {
		scheme, _, _ := strings.Cut(target, ":")
		got, err := CanonicalAuthority(m.Authority, scheme)
		if err != nil {
			return nil, err
		}
		if got != authority {
			return nil, fail(CodeTargetURIMalformed, "10", "@authority", "the request's authority %q is not the target URI's %q", got, authority)
		}
	}
	var vals [8]string
	values := vals[:0]
	for _, c := range sp.components {
		switch c {
		case compMethod:
			values = append(values, strings.ToUpper(m.Method))
		case compTargetURI:
			values = append(values, target)
		case compAuthority:
			values = append(values, authority)
		default:
			v, _ := fieldValue(m.Header, c)
			values = append(values, v)
		}
	}
	return appendBase(b, sp.components, values, sp.paramsText), nil
}

// SignatureBase is the RFC 9421 signature base a verifier computes for m
// (the label processed: sig1, or the only one), for comparing with a
// peer's or a vector's expected_signature_base. It checks nothing beyond
// what building the base needs.
func SignatureBase(m *Message) (string, error) {
	v := &Verifier{o: VerifierOptions{Profile: Profile{kind: Request, encoding: EncodingLegacy}}}
	input, ok := fieldValue(m.Header, "Signature-Input")
	if !ok {
		return "", ErrUnsigned
	}
	sp, err := v.parseInput(input)
	if err != nil {
		return "", err
	}
	b, err := messageBase(sp, m, nil)
	return string(b), err
}

// parse is step 1: Signature-Input and Signature as RFC 8941 dictionaries,
// the label to process, its components and typed parameters, and its
// signature bytes in the profile's encoding.
func (v *Verifier) parse(input, sigField string) (*sigParams, error) {
	p := v.o.Profile
	sp, err := v.parseInput(input)
	if err != nil {
		return nil, err
	}
	sigs, err := parseDictionary(sigField)
	if err != nil {
		return nil, &Rejection{Code: p.code(CodeHeaderMalformed), Step: "1", Where: "Signature", Reason: "not an RFC 8941 dictionary", Err: err}
	}
	var sig *sfMember
	for i := range sigs {
		if sigs[i].key == sp.label {
			sig = &sigs[i]
		}
	}
	if sig == nil {
		return nil, fail(p.code(CodeHeaderMalformed), "1", "Signature", "no signature for label %s", sp.label)
	}
	if sig.val.kind != sfBinary {
		return nil, fail(p.code(CodeHeaderMalformed), "1", "Signature", "label %s is a %s, not a byte sequence", sp.label, sig.val.kind)
	}
	if sp.sig, err = decodeBinary(sig.val.text, p.encoding); err != nil {
		return nil, &Rejection{Code: p.code(CodeHeaderMalformed), Step: "1", Where: "Signature", Reason: "not " + p.encoding.String(), Err: err}
	}
	return sp, nil
}

// parseInput parses Signature-Input: the label processed, its covered
// components and its typed parameters.
func (v *Verifier) parseInput(input string) (*sigParams, error) {
	p := v.o.Profile
	bad := func(where, format string, args ...any) *Rejection {
		return fail(p.code(CodeHeaderMalformed), "1", where, format, args...)
	}
	members, err := parseDictionary(input)
	if err != nil {
		return nil, &Rejection{Code: p.code(CodeHeaderMalformed), Step: "1", Where: "Signature-Input", Reason: "not an RFC 8941 dictionary", Err: err}
	}
	// Exactly one label is processed: sig1, or the only one there is.
	var entry *sfMember
	for i := range members {
		if members[i].key == defaultLabel {
			entry = &members[i]
		}
	}
	if entry == nil {
		if len(members) != 1 {
			return nil, bad("Signature-Input", "no %s label among %d labels", defaultLabel, len(members))
		}
		entry = &members[0]
	}
	if entry.val.kind != sfInnerList {
		return nil, bad("Signature-Input", "label %s is a %s, not a component list", entry.key, entry.val.kind)
	}
	sp := &sigParams{label: entry.key}
	for _, c := range entry.val.list {
		if c.kind != sfString {
			return nil, bad("Signature-Input", "covered component is a %s, not a string", c.kind)
		}
		if c.text == "" || strings.ToLower(c.text) != c.text {
			return nil, bad("Signature-Input", "component %q is not a lowercase identifier", c.text)
		}
		for _, prev := range sp.components {
			if prev == c.text {
				return nil, bad("Signature-Input", "component %q is covered twice", c.text)
			}
		}
		if len(c.params) > 0 {
			return nil, fail(p.code(CodeComponentsUnexpected), "6", c.text, "component parameters (;%s) are not part of the profile", c.params[0].key)
		}
		sp.components = append(sp.components, c.text)
	}
	for _, prm := range entry.val.params {
		switch prm.key {
		case "created", "expires":
			if prm.val.kind != sfInteger || prm.val.i < 0 {
				return nil, bad(prm.key, "signature parameter %s is a %s, not a non-negative integer", prm.key, prm.val.kind)
			}
			if prm.key == "created" {
				sp.created, sp.have[0] = prm.val.i, true
			} else {
				sp.expires, sp.have[1] = prm.val.i, true
			}
		case "nonce", "keyid", "alg", "tag":
			if prm.val.kind != sfString {
				return nil, bad(prm.key, "signature parameter %s is a %s, not a quoted string", prm.key, prm.val.kind)
			}
			switch prm.key {
			case "nonce":
				sp.nonce, sp.have[2] = prm.val.text, true
			case "keyid":
				sp.keyID, sp.have[3] = prm.val.text, true
			case "alg":
				sp.alg, sp.have[4] = keys.Algorithm(prm.val.text), true
			case "tag":
				sp.tag, sp.have[5] = prm.val.text, true
			}
		}
	}
	sp.paramsText = appendItem(make([]byte, 0, len(input)), entry.val)
	return sp, nil
}

// checkComponents is step 6.
func (v *Verifier) checkComponents(components []string, m *Message) error {
	p := v.o.Profile
	has := func(c string) bool { return slices.Contains(components, c) }
	for _, c := range components {
		if c[0] == '@' && c != compMethod && c != compTargetURI && c != compAuthority {
			return fail(p.code(CodeComponentsUnexpected), "6", c, "derived component %s is not part of the profile", c)
		}
	}
	required := []string{compMethod, compTargetURI, compAuthority}
	body := len(m.Body) > 0
	if body || p.kind == Webhook {
		required = append(required, compType)
	}
	if p.kind == Webhook || (body && p.digest == DigestRequired) {
		required = append(required, compDigest)
	}
	for _, c := range required {
		if !has(c) {
			return fail(p.code(CodeComponentsIncomplete), "6", c, "%s is not covered", c)
		}
	}
	if p.digest == DigestForbidden && has(compDigest) {
		return fail(CodeComponentsUnexpected, "6", compDigest, "this endpoint's covers_content_digest is \"forbidden\"")
	}
	for _, c := range components {
		if c[0] != '@' && len(headerValues(m.Header, c)) == 0 {
			return fail(p.code(CodeComponentsIncomplete), "6", c, "covered field %s is absent from the request", c)
		}
	}
	return nil
}

// keyError maps a key source's failure (step 7) to the profile: request
// codes pass through; on the webhook path every failure to resolve is
// webhook_signature_key_unknown, wrapping the discovery error.
func (v *Verifier) keyError(keyID string, err error) error {
	var e *Rejection
	switch {
	case errors.As(err, &e):
	case errors.Is(err, keys.ErrUnknown):
		e = &Rejection{Code: CodeKeyUnknown, Step: "7", Where: "keyid", Err: err}
	default:
		e = &Rejection{Code: CodeJWKSUnavailable, Step: "7", Where: "keyid " + strconv.Quote(keyID), Err: err}
	}
	if v.o.Profile.kind == Webhook {
		if e.Code == CodeKeyUnknown {
			return &Rejection{Code: CodeWebhookKeyUnknown, Step: "7", Where: e.Where, Reason: e.Reason, Err: e.Err}
		}
		return &Rejection{Code: CodeWebhookKeyUnknown, Step: "7", Where: "keyid " + strconv.Quote(keyID), Reason: "the signer's keys could not be resolved", Err: e}
	}
	return e
}

// remap gives an *Rejection from canonicalization the profile's code and the
// step.
func (v *Verifier) remap(err error, step string) error {
	var e *Rejection
	if errors.As(err, &e) {
		c := *e
		c.Code, c.Step = v.o.Profile.code(e.Code), step
		return &c
	}
	return err
}

// hasTopLevelComma reports a comma outside a quoted string: a second value
// in a field that has one.
func hasTopLevelComma(s string) bool {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == ',':
			return true
		}
	}
	return false
}

// checkPurpose is checklist step 8: the key is a signing key (use "sig",
// key_ops holding "verify"), scoped to the profile (adcp_use), its alg
// declared and equal to the signature's, and its kty and crv the ones
// that alg names (RFC 8037, RFC 7518).
func checkPurpose(k *keys.JWK, p Profile, alg keys.Algorithm) *Rejection {
	bad := func(format string, args ...any) *Rejection {
		return fail(p.code(CodeKeyPurposeInvalid), "8", "keyid "+strconv.Quote(k.KeyID), format, args...)
	}
	if k.Use != "sig" {
		return bad("JWK use is %q, not \"sig\"", k.Use)
	}
	hasVerify := false
	for _, op := range k.KeyOps {
		hasVerify = hasVerify || op == "verify"
	}
	if !hasVerify {
		return bad("JWK key_ops does not hold \"verify\"")
	}
	if !p.acceptsUse(k.AdCPUse) {
		if k.AdCPUse == "" {
			return bad("JWK has no adcp_use; the %s profile accepts %q", p.kind, p.keyUses)
		}
		return bad("JWK adcp_use is %q; the %s profile accepts %q", k.AdCPUse, p.kind, p.keyUses)
	}
	if k.Algorithm == "" {
		return bad("JWK declares no alg to bind to the signature's alg %q", alg)
	}
	if k.Algorithm != alg.JOSE() {
		return bad("JWK alg is %q but the signature's alg %q is %s", k.Algorithm, alg, alg.JOSE())
	}
	switch {
	case alg == keys.Ed25519 && (k.KeyType != "OKP" || k.Curve != "Ed25519"):
		return bad("JWK alg EdDSA with kty %q and crv %q is impossible", k.KeyType, k.Curve)
	case alg == keys.ECDSAP256 && (k.KeyType != "EC" || k.Curve != "P-256"):
		return bad("JWK alg ES256 with kty %q and crv %q is impossible", k.KeyType, k.Curve)
	}
	if problem := k.Problem(); problem != "" {
		return bad("%s", problem)
	}
	return nil
}

// replayTTL is how long a pair stays live: (expires − now) + 60 s, the
// skew tolerance of the window check (security.mdx "Transport replay
// dedup"), and never less than the 60 s.
func replayExpiry(expires, now time.Time) time.Time {
	if exp := expires.Add(skew); exp.After(now.Add(skew)) {
		return exp
	}
	return now.Add(skew)
}
