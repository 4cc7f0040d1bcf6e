package signing

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// JWK is one public key of a JWKS as an AdCP agent publishes it
// (security.mdx "Agent key publication"). Parsing keeps a key whose
// members are inconsistent or whose material is broken, so that looking it
// up fails at the purpose check (step 8) with the right code instead of as
// an unknown key; Problem says what is wrong with it.
type JWK struct {
	KeyID     string   // kid
	KeyType   string   // kty: OKP or EC
	Curve     string   // crv: Ed25519 or P-256
	Algorithm string   // alg, the JOSE name: EdDSA or ES256
	Use       string   // use: "sig"
	KeyOps    []string // key_ops: must hold "verify"
	AdCPUse   string   // adcp_use: "request-signing", ...
	X, Y      string   // the public point, base64url

	pub     crypto.PublicKey
	problem string
}

// Problem says why the key cannot verify anything (a member of the wrong
// type, broken key material), or "" when it can.
func (k *JWK) Problem() string { return k.problem }

// PublicKey is the key's public part: ed25519.PublicKey or
// *ecdsa.PublicKey (P-256).
func (k *JWK) PublicKey() (crypto.PublicKey, error) {
	if k.problem != "" {
		return nil, errors.New(k.problem)
	}
	return k.pub, nil
}

// strictJSON reads one document with runtime/wire's strict reader: a
// duplicate key, a forbidden key or any syntax error anywhere is refused,
// so every reader of the document sees the same value.
func strictJSON(data []byte) (wire.Lenient, error) {
	if err := wire.Valid(data); err != nil {
		return nil, err
	}
	return wire.ParseLenient(data)
}

// ParseJWK reads one public JWK.
func ParseJWK(data []byte) (*JWK, error) {
	v, err := strictJSON(data)
	if err != nil {
		return nil, fmt.Errorf("signing: JWK: %w", err)
	}
	if !v.IsObject() {
		return nil, errors.New("signing: JWK: not a JSON object")
	}
	return jwkFrom(v), nil
}

// jwkFrom reads the members of a JWK object, recording rather than
// failing on members of the wrong type.
func jwkFrom(v wire.Lenient) *JWK {
	k := &JWK{}
	var bad []string
	str := func(name string, dst *string) {
		m := v.Get(name)
		if !m.Present() {
			return
		}
		s, ok := m.AsString()
		if !ok {
			bad = append(bad, name+" is not a string")
			return
		}
		*dst = s
	}
	str("kid", &k.KeyID)
	str("kty", &k.KeyType)
	str("crv", &k.Curve)
	str("alg", &k.Algorithm)
	str("use", &k.Use)
	str("adcp_use", &k.AdCPUse)
	str("x", &k.X)
	str("y", &k.Y)
	ops, problem := stringArray(v.Get("key_ops"))
	if problem != "" {
		bad = append(bad, "key_ops "+problem)
	}
	k.KeyOps = ops
	if len(bad) > 0 {
		k.problem = "JWK member " + bad[0]
		return k
	}
	k.pub, k.problem = publicKeyOf(k)
	return k
}

func b64url(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(s)
}

// publicKeyOf builds the key from kty, crv, x and y, checking that the
// point is on the curve.
func publicKeyOf(k *JWK) (crypto.PublicKey, string) {
	switch {
	case k.KeyType == "OKP" && k.Curve == "Ed25519":
		x, err := b64url(k.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			return nil, "Ed25519 JWK x is not 32 base64url bytes"
		}
		if k.Y != "" {
			return nil, "Ed25519 JWK has a y member"
		}
		return ed25519.PublicKey(x), ""
	case k.KeyType == "EC" && k.Curve == "P-256":
		x, err1 := b64url(k.X)
		y, err2 := b64url(k.Y)
		if err1 != nil || err2 != nil || len(x) != 32 || len(y) != 32 {
			return nil, "P-256 JWK x and y are not 32 base64url bytes each"
		}
		pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
		if err != nil {
			return nil, "P-256 JWK point is not on the curve"
		}
		return pub, ""
	}
	return nil, fmt.Sprintf("JWK kty %q with crv %q is not an Ed25519 or P-256 key", k.KeyType, k.Curve)
}

// checkPurpose is checklist step 8: the key is a signing key (use "sig",
// key_ops holding "verify"), scoped to the profile (adcp_use), its alg
// declared and equal to the signature's, and its kty and crv the ones
// that alg names (RFC 8037, RFC 7518).
func (k *JWK) checkPurpose(p Profile, alg Algorithm) *Rejection {
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
	case alg == Ed25519 && (k.KeyType != "OKP" || k.Curve != "Ed25519"):
		return bad("JWK alg EdDSA with kty %q and crv %q is impossible", k.KeyType, k.Curve)
	case alg == ECDSAP256 && (k.KeyType != "EC" || k.Curve != "P-256"):
		return bad("JWK alg ES256 with kty %q and crv %q is impossible", k.KeyType, k.Curve)
	}
	if k.problem != "" {
		return bad("%s", k.problem)
	}
	return nil
}

// MarshalJSON writes the public JWK: kid, kty, crv, x, y, alg, use,
// key_ops and adcp_use, in that order, the members that are set.
func (k *JWK) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	put := func(name, val string) {
		if val == "" {
			return
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(wire.AppendQuoted(nil, name))
		b.WriteByte(':')
		b.Write(wire.AppendQuoted(nil, val))
	}
	put("kid", k.KeyID)
	put("kty", k.KeyType)
	put("crv", k.Curve)
	put("x", k.X)
	put("y", k.Y)
	put("alg", k.Algorithm)
	put("use", k.Use)
	if len(k.KeyOps) > 0 {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(`"key_ops":[`)
		for i, op := range k.KeyOps {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(wire.AppendQuoted(nil, op))
		}
		b.WriteByte(']')
	}
	put("adcp_use", k.AdCPUse)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// JWKS is a JSON Web Key Set. Lookups by kid resolve to exactly one key; a
// kid published twice resolves to none (security.mdx: "kid collisions
// within the same JWKS are forbidden").
type JWKS struct {
	Keys []*JWK
}

// ParseJWKS reads a JWKS document ({"keys": [...]}) with the strict
// reader. A document with a duplicate key anywhere, without a keys array,
// or with an entry that is not an object is refused; an entry with broken
// members is kept (see JWK).
func ParseJWKS(data []byte) (*JWKS, error) {
	v, err := strictJSON(data)
	if err != nil {
		return nil, fmt.Errorf("signing: JWKS: %w", err)
	}
	keys := v.Get("keys")
	if !v.IsObject() || !keys.IsArray() {
		return nil, errors.New("signing: JWKS: not an object with a keys array")
	}
	set := &JWKS{}
	var bad error
	i := 0
	keys.Elems(func(e wire.Lenient) bool {
		if !e.IsObject() {
			bad = fmt.Errorf("signing: JWKS: /keys/%d is not an object", i)
			return false
		}
		set.Keys = append(set.Keys, jwkFrom(e))
		i++
		return true
	})
	if bad != nil {
		return nil, bad
	}
	return set, nil
}

// Lookup returns the one key published under kid, or nil.
func (s *JWKS) Lookup(kid string) *JWK {
	var found *JWK
	for _, k := range s.Keys {
		if k.KeyID == kid {
			if found != nil {
				return nil
			}
			found = k
		}
	}
	return found
}

// MarshalJSON writes {"keys":[...]} with each key's public members.
func (s *JWKS) MarshalJSON() ([]byte, error) {
	b := []byte(`{"keys":[`)
	for i, k := range s.Keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := k.MarshalJSON()
		b = append(b, kb...)
	}
	return append(b, "]}"...), nil
}

// Key is what a KeySource resolves a keyid to: the JWK, and the agent
// whose brand.json entry published it (the verified signer's agent URL;
// "" when the source is not tied to one, as a static set need not be).
type Key struct {
	JWK      *JWK
	AgentURL string
}

// KeySource resolves a signature's keyid to its key (checklist step 7).
// An unknown keyid is a *Rejection with CodeKeyUnknown (after the source's one
// refetch, for sources that fetch); a discovery failure is a *Rejection with
// the discovery code (request_signature_jwks_unavailable, the
// request_signature_brand_* codes, ...). The verifier maps codes to the
// webhook taxonomy on the webhook path.
type KeySource interface {
	LookupKey(ctx context.Context, keyID string) (*Key, error)
}

// StaticKeys is a KeySource over a fixed JWKS, every key belonging to
// AgentURL.
type StaticKeys struct {
	Set      *JWKS
	AgentURL string
}

// LookupKey implements KeySource.
func (s StaticKeys) LookupKey(_ context.Context, keyID string) (*Key, error) {
	if s.Set != nil {
		if k := s.Set.Lookup(keyID); k != nil {
			return &Key{JWK: k, AgentURL: s.AgentURL}, nil
		}
	}
	return nil, fail(CodeKeyUnknown, "7", "keyid", "keyid %q is not in the JWKS", keyID)
}

// KeySources asks each source in turn; the first that knows the keyid
// answers. A discovery failure of one source is returned only when no
// later source knows the keyid.
type KeySources []KeySource

// LookupKey implements KeySource.
func (ss KeySources) LookupKey(ctx context.Context, keyID string) (*Key, error) {
	var firstErr error
	for _, s := range ss {
		k, err := s.LookupKey(ctx, keyID)
		if err == nil {
			return k, nil
		}
		if firstErr == nil || CodeOf(firstErr) == CodeKeyUnknown {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = fail(CodeKeyUnknown, "7", "keyid", "no key source knows keyid %q", keyID)
	}
	return nil, firstErr
}
