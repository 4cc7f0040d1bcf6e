package keys

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/signing/internal/jsonread"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// JWK adcp_use values a signing key may carry.
const (
	UseRequestSigning = "request-signing"
	// UseWebhookSigning is deprecated: webhooks are signed with a
	// request-signing key since AdCP 3.1; verifiers still accept it.
	UseWebhookSigning = "webhook-signing"
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

// ParseJWK reads one public JWK.
func ParseJWK(data []byte) (*JWK, error) {
	v, err := jsonread.Strict(data)
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
	ops, problem := jsonread.StringArray(v.Get("key_ops"))
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

// publicKeyOf builds the key from kty, crv, x and y, checking that the
// point is on the curve.
func publicKeyOf(k *JWK) (crypto.PublicKey, string) {
	switch {
	case k.KeyType == "OKP" && k.Curve == "Ed25519":
		x, err := jsonread.Base64URL(k.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			return nil, "Ed25519 JWK x is not 32 base64url bytes"
		}
		if k.Y != "" {
			return nil, "Ed25519 JWK has a y member"
		}
		return ed25519.PublicKey(x), ""
	case k.KeyType == "EC" && k.Curve == "P-256":
		x, err1 := jsonread.Base64URL(k.X)
		y, err2 := jsonread.Base64URL(k.Y)
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
	v, err := jsonread.Strict(data)
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

// Key is what a Resolver resolves a keyid to: the JWK, and the agent whose
// brand.json entry published it (the verified signer's agent URL; "" when
// the source is not tied to one, as a static set need not be).
type Key struct {
	JWK      *JWK
	AgentURL string
}

// ErrUnknown is what a Resolver answers for a keyid it does not know, after
// its one refetch for sources that fetch (checklist step 7): the verifier
// answers it request_signature_key_unknown (webhook_signature_key_unknown on
// the webhook path). A Resolver wraps it with the keyid; errors.Is finds it.
var ErrUnknown = errors.New("signing: keyid unknown")

// Resolver resolves a signature's keyid to its key (checklist step 7). An
// unknown keyid is ErrUnknown; a discovery failure is the discovery's
// *signing.Rejection, carrying its code (request_signature_jwks_unavailable,
// the request_signature_brand_* codes, ...), which the verifier answers as
// it is (mapped to the webhook taxonomy on the webhook path).
type Resolver interface {
	LookupKey(ctx context.Context, keyID string) (*Key, error)
}

// Static is a Resolver over a fixed JWKS, every key belonging to AgentURL:
// keys registered at onboarding, or the tests' own.
type Static struct {
	Set      *JWKS
	AgentURL string
}

// LookupKey implements Resolver.
func (s Static) LookupKey(_ context.Context, keyID string) (*Key, error) {
	if s.Set != nil {
		if k := s.Set.Lookup(keyID); k != nil {
			return &Key{JWK: k, AgentURL: s.AgentURL}, nil
		}
	}
	return nil, fmt.Errorf("%w: keyid %q is not in the JWKS", ErrUnknown, keyID)
}

// Resolvers asks each source in turn; the first that knows the keyid
// answers. A discovery failure of one source is returned only when no
// later source knows the keyid.
type Resolvers []Resolver

// LookupKey implements Resolver.
func (ss Resolvers) LookupKey(ctx context.Context, keyID string) (*Key, error) {
	var firstErr error
	for _, s := range ss {
		k, err := s.LookupKey(ctx, keyID)
		if err == nil {
			return k, nil
		}
		if firstErr == nil || errors.Is(firstErr, ErrUnknown) {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("%w: no key source knows keyid %q", ErrUnknown, keyID)
	}
	return nil, firstErr
}
