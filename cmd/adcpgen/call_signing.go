package main

import (
	"crypto"
	"fmt"
	"io"
	"os"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// maxJWKFile caps a private JWK file: a key is a few hundred bytes.
const maxJWKFile = 64 << 10

// callSigner reads a private JWK file and returns the CallSigner of AdCP
// version v with it.
func callSigner(path, v string) (*signing.CallSigner, error) {
	key, jwk, err := readPrivateJWK(path)
	if err != nil {
		return nil, err
	}
	if jwk.KeyID == "" {
		return nil, fmt.Errorf("%s: the JWK has no kid (the id of its public key at the agent's jwks_uri)", path)
	}
	cs, err := signing.NewCallSigner(signing.CallSignerOptions{Version: v, KeyID: jwk.KeyID, Key: key})
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", v, err)
	}
	return cs, nil
}

// readPrivateJWK reads a private JWK (an OKP Ed25519 or EC P-256 key with
// d) from path.
func readPrivateJWK(path string) (crypto.Signer, *keys.JWK, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxJWKFile+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxJWKFile {
		return nil, nil, fmt.Errorf("%s: over %d bytes, too large for a JWK", path, maxJWKFile)
	}
	key, jwk, err := keys.ParsePrivateJWK(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return key, jwk, nil
}
