package keys

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"math/big"
)

// Algorithm is an RFC 9421 alg signature parameter the AdCP profile
// allows.
type Algorithm string

const (
	// Ed25519 is "ed25519" (JWK alg EdDSA, kty OKP, crv Ed25519).
	Ed25519 Algorithm = "ed25519"
	// ECDSAP256 is "ecdsa-p256-sha256" (JWK alg ES256, kty EC, crv P-256),
	// its signature IEEE P1363 r‖s (RFC 9421 §3.3.4).
	ECDSAP256 Algorithm = "ecdsa-p256-sha256"
)

// JOSE is the algorithm's JWK alg name: EdDSA or ES256 (security.mdx
// "Algorithm naming — JWK vs RFC 9421").
func (a Algorithm) JOSE() string {
	switch a {
	case Ed25519:
		return "EdDSA"
	case ECDSAP256:
		return "ES256"
	}
	return ""
}

// Allowed reports whether a is on the profile's allowlist.
func (a Algorithm) Allowed() bool { return a == Ed25519 || a == ECDSAP256 }

// AlgorithmOf returns the algorithm a public key signs with: Ed25519, or
// ECDSAP256 for a P-256 key; other keys are not allowed.
func AlgorithmOf(pub crypto.PublicKey) (Algorithm, error) {
	switch k := pub.(type) {
	case ed25519.PublicKey:
		if len(k) != ed25519.PublicKeySize {
			return "", errors.New("signing: Ed25519 public key of wrong size")
		}
		return Ed25519, nil
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return "", fmt.Errorf("signing: ECDSA key on %s; the profile allows P-256 only", k.Curve.Params().Name)
		}
		return ECDSAP256, nil
	}
	return "", fmt.Errorf("signing: %T keys are not allowed; use Ed25519 or ECDSA P-256", pub)
}

// Verify reports whether sig is a's signature over base by pub (for
// ECDSAP256, P1363 r‖s).
func (a Algorithm) Verify(pub crypto.PublicKey, base, sig []byte) bool {
	switch a {
	case Ed25519:
		k, ok := pub.(ed25519.PublicKey)
		return ok && len(sig) == ed25519.SignatureSize && ed25519.Verify(k, base, sig)
	case ECDSAP256:
		k, ok := pub.(*ecdsa.PublicKey)
		if !ok || len(sig) != 64 {
			return false
		}
		h := sha256.Sum256(base)
		r := new(big.Int).SetBytes(sig[:32])
		s := new(big.Int).SetBytes(sig[32:])
		return ecdsa.Verify(k, h[:], r, s)
	}
	return false
}

// Sign signs base with key under a. A crypto.Signer for ECDSA (an
// in-memory key or a KMS handle) answers ASN.1 DER, converted here to the
// P1363 r‖s the profile requires; one that already answers 64 bytes is
// taken as r‖s.
func (a Algorithm) Sign(key crypto.Signer, rand io.Reader, base []byte) ([]byte, error) {
	switch a {
	case Ed25519:
		sig, err := key.Sign(rand, base, crypto.Hash(0))
		if err != nil {
			return nil, err
		}
		if len(sig) != ed25519.SignatureSize {
			return nil, fmt.Errorf("signing: the key returned a %d-byte Ed25519 signature", len(sig))
		}
		return sig, nil
	case ECDSAP256:
		h := sha256.Sum256(base)
		sig, err := key.Sign(rand, h[:], crypto.SHA256)
		if err != nil {
			return nil, err
		}
		return p1363(sig)
	}
	return nil, fmt.Errorf("signing: algorithm %q is not allowed", a)
}

// p1363 converts an ECDSA P-256 signature to r‖s (32 bytes each).
func p1363(sig []byte) ([]byte, error) {
	var rs struct{ R, S *big.Int }
	rest, err := asn1.Unmarshal(sig, &rs)
	if err != nil || len(rest) != 0 || rs.R == nil || rs.S == nil || rs.R.Sign() <= 0 || rs.S.Sign() <= 0 {
		if len(sig) == 64 {
			return sig, nil // already r‖s
		}
		return nil, errors.New("signing: the ECDSA signature is neither DER nor 64-byte r‖s")
	}
	if rs.R.BitLen() > 256 || rs.S.BitLen() > 256 {
		return nil, errors.New("signing: the ECDSA signature is not a P-256 signature")
	}
	out := make([]byte, 64)
	rs.R.FillBytes(out[:32])
	rs.S.FillBytes(out[32:])
	return out, nil
}
