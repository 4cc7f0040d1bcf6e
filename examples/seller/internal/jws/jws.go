// Package jws signs and verifies the compact JWS (RFC 7515) the example's
// agents issue: ES256 only (ECDSA P-256 and SHA-256, RFC 7518 section
// 3.4), the key named by kid, the type by typ; nothing a verifier could be
// talked into (no "none", no HMAC with the public key, no key from the
// header). The seller's OAuth access tokens (RFC 9068, typ "at+jwt") and
// the governance agent's governance context tokens use it.
package jws

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The ~80 lines below cover exactly the one algorithm the agents use: a
// JWT library would be a dependency for less.

// jwtHeader is the JOSE header of the tokens.
type jwtHeader struct {
	Alg string `json:"alg"`
	Typ string `json:"typ"`
	Kid string `json:"kid"`
}

// b64 is base64url without padding, as JWS uses it.
var b64 = base64.RawURLEncoding

// Sign returns the compact serialization of claims (encoded with
// encoding/json) signed with key, its header naming kid and typ.
func Sign(key *ecdsa.PrivateKey, kid, typ string, claims any) (string, error) {
	header, err := json.Marshal(jwtHeader{Alg: "ES256", Typ: typ, Kid: kid})
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := b64.EncodeToString(header) + "." + b64.EncodeToString(payload)
	digest := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, key, digest[:])
	if err != nil {
		return "", err
	}
	// JWS carries R and S as two 32-byte big-endian integers (RFC 7518
	// section 3.4), not the ASN.1 of SignASN1.
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return input + "." + b64.EncodeToString(sig), nil
}

// Verify checks token's header (ES256, the type typ or
// "application/"+typ, the key id kid) and its signature with pub, and
// returns the payload's bytes, strict JSON.
func Verify(pub *ecdsa.PublicKey, kid, typ, token string) ([]byte, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, errors.New("not a compact JWS (three dot-separated parts)")
	}
	var h jwtHeader
	if err := decodeSegment(parts[0], &h); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if h.Alg != "ES256" {
		return nil, fmt.Errorf("alg %q, want ES256", h.Alg)
	}
	if !strings.EqualFold(h.Typ, typ) && !strings.EqualFold(h.Typ, "application/"+typ) {
		return nil, fmt.Errorf("typ %q, want %s", h.Typ, typ)
	}
	if h.Kid != kid {
		return nil, errors.New("signed with another key")
	}
	sig, err := b64.Strict().DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return nil, errors.New("signature is not 64 bytes of base64url")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(pub, digest[:], r, s) {
		return nil, errors.New("bad signature")
	}
	payload, err := b64.Strict().DecodeString(parts[1])
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	if err := wire.Valid(payload); err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return payload, nil
}

// decodeSegment decodes a base64url JSON segment strictly (no duplicate
// keys, no "__proto__") into v.
func decodeSegment(seg string, v any) error {
	data, err := b64.Strict().DecodeString(seg)
	if err != nil {
		return err
	}
	if err := wire.Valid(data); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// PublicJWK is key's public key as a JWK (RFC 7517) for ES256 signatures,
// its kid the key's RFC 7638 thumbprint.
func PublicJWK(key *ecdsa.PrivateKey) (map[string]string, error) {
	point, err := key.PublicKey.Bytes() // 0x04 || X || Y
	if err != nil {
		return nil, err
	}
	x, y := b64.EncodeToString(point[1:33]), b64.EncodeToString(point[33:])
	// RFC 7638: the thumbprint hashes the required members in
	// lexicographic order, without whitespace.
	thumb := sha256.Sum256([]byte(`{"crv":"P-256","kty":"EC","x":"` + x + `","y":"` + y + `"}`))
	return map[string]string{"kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": b64.EncodeToString(thumb[:]), "use": "sig", "alg": "ES256"}, nil
}
