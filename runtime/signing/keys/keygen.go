package keys

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/adcpgen/adcpgen/runtime/signing/internal/jsonread"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// GenerateKey makes a signing key pair for alg, returning the private key
// and its public JWK published as security.mdx "Agent key publication"
// requires: kid, use "sig", key_ops ["verify"], adcp_use
// "request-signing" (which signs webhooks too) and the JOSE alg. rand nil
// means crypto/rand.
func GenerateKey(alg Algorithm, kid string, random io.Reader) (crypto.Signer, *JWK, error) {
	if kid == "" {
		return nil, nil, errors.New("signing: GenerateKey needs a kid")
	}
	if random == nil {
		random = rand.Reader
	}
	var key crypto.Signer
	switch alg {
	case Ed25519:
		_, priv, err := ed25519.GenerateKey(random)
		if err != nil {
			return nil, nil, err
		}
		key = priv
	case ECDSAP256:
		priv, err := ecdsa.GenerateKey(elliptic.P256(), random)
		if err != nil {
			return nil, nil, err
		}
		key = priv
	default:
		return nil, nil, fmt.Errorf("signing: algorithm %q is not allowed; use %q or %q", alg, Ed25519, ECDSAP256)
	}
	pub, err := PublicJWK(key.Public(), kid)
	if err != nil {
		return nil, nil, err
	}
	return key, pub, nil
}

// PublicJWK is the JWK an agent publishes for pub under kid, with the
// request-signing purpose members.
func PublicJWK(pub crypto.PublicKey, kid string) (*JWK, error) {
	alg, err := AlgorithmOf(pub)
	if err != nil {
		return nil, err
	}
	k := &JWK{KeyID: kid, Algorithm: alg.JOSE(), Use: "sig", KeyOps: []string{"verify"}, AdCPUse: UseRequestSigning, pub: pub}
	switch p := pub.(type) {
	case ed25519.PublicKey:
		k.KeyType, k.Curve, k.X = "OKP", "Ed25519", base64.RawURLEncoding.EncodeToString(p)
	case *ecdsa.PublicKey:
		b, err := p.Bytes()
		if err != nil {
			return nil, err
		}
		k.KeyType, k.Curve = "EC", "P-256"
		k.X, k.Y = base64.RawURLEncoding.EncodeToString(b[1:33]), base64.RawURLEncoding.EncodeToString(b[33:])
	}
	return k, nil
}

// MarshalPrivateJWK writes key as a private JWK (the public members of
// pub plus d, and key_ops ["sign"]), the form an agent keeps its signing
// key in (a secret manager, ADCP_SIGNING_PRIVATE_KEY). Never publish it.
func MarshalPrivateJWK(key crypto.Signer, pub *JWK) ([]byte, error) {
	var d []byte
	switch k := key.(type) {
	case ed25519.PrivateKey:
		d = k.Seed()
	case *ecdsa.PrivateKey:
		b, err := k.Bytes()
		if err != nil {
			return nil, err
		}
		d = b
	default:
		return nil, fmt.Errorf("signing: cannot export a %T as a JWK", key)
	}
	priv := *pub
	priv.KeyOps = []string{"sign"}
	b, _ := priv.MarshalJSON()
	b = append(b[:len(b)-1], `,"d":`...)
	b = wire.AppendQuoted(b, base64.RawURLEncoding.EncodeToString(d))
	return append(b, '}'), nil
}

// ParsePrivateJWK reads a private JWK (an OKP Ed25519 or EC P-256 key with
// d) and returns the key and its public JWK, checking that d belongs to x
// (and y).
func ParsePrivateJWK(data []byte) (crypto.Signer, *JWK, error) {
	v, err := jsonread.Strict(data)
	if err != nil {
		return nil, nil, fmt.Errorf("signing: private JWK: %w", err)
	}
	if !v.IsObject() {
		return nil, nil, errors.New("signing: private JWK: not a JSON object")
	}
	pub := jwkFrom(v)
	if pub.problem != "" {
		return nil, nil, errors.New("signing: private JWK: " + pub.problem)
	}
	ds, ok := v.Get("d").AsString()
	if !ok {
		return nil, nil, errors.New("signing: private JWK: no d member")
	}
	d, err := jsonread.Base64URL(ds)
	if err != nil {
		return nil, nil, errors.New("signing: private JWK: d is not base64url")
	}
	var key crypto.Signer
	switch p := pub.pub.(type) {
	case ed25519.PublicKey:
		if len(d) != ed25519.SeedSize {
			return nil, nil, errors.New("signing: private JWK: Ed25519 d is not 32 bytes")
		}
		priv := ed25519.NewKeyFromSeed(d)
		if !p.Equal(priv.Public()) {
			return nil, nil, errors.New("signing: private JWK: d does not match x")
		}
		key = priv
	case *ecdsa.PublicKey:
		priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
		if err != nil {
			return nil, nil, fmt.Errorf("signing: private JWK: %w", err)
		}
		if !p.Equal(priv.Public()) {
			return nil, nil, errors.New("signing: private JWK: d does not match x and y")
		}
		key = priv
	}
	pub.KeyOps = []string{"verify"}
	return key, pub, nil
}
