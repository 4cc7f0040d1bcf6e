package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

const keygenSynopsis = "adcpgen keygen --kid ID --private FILE [--alg ed25519|ecdsa-p256-sha256] [--adcp-use request-signing|webhook-signing] [--jwks FILE]"

const keygenDescription = `
Generate an AdCP signing key pair (RFC 9421 request and webhook signing,
security.mdx "Agent key publication"): write the private JWK to --private
(created with mode 0600; an existing file is never overwritten) and print
the JWKS to publish, {"keys": [the public JWK]}, on stdout or to --jwks.

The public JWK carries kid, use "sig", key_ops ["verify"], alg (EdDSA or
ES256) and adcp_use: "request-signing" by default, which signs requests and,
from AdCP 3.1, webhooks too; "webhook-signing" is the deprecated purpose an
AdCP 3.0 webhook receiver requires of a seller's webhook key. Publish it at
the jwks_uri of your agent's brand.json agents[] entry (default
/.well-known/jwks.json at the agent's origin). The private JWK is what
adcpgen call --signing-key reads (and runtime/signing/keys.ParsePrivateJWK); keep
it out of version control, or in a key manager (runtime/signing signs with
any crypto.Signer).

Exit status: 0 written; 2 bad usage or a file that cannot be written.`

func runKeygen(e *env, args []string) int {
	fs := newFlagSet("keygen", keygenSynopsis, keygenDescription)
	kid := fs.String("kid", "", "the key's `ID` in the JWKS, unique there (required)")
	private := fs.String("private", "", "where to write the private JWK, a new `FILE` (required)")
	alg := fs.String("alg", string(keys.Ed25519), "the RFC 9421 `ALGORITHM`: ed25519 or ecdsa-p256-sha256")
	use := fs.String("adcp-use", keys.UseRequestSigning, "the key's adcp_use `PURPOSE`: request-signing or webhook-signing")
	jwksOut := fs.String("jwks", "", "write the JWKS to `FILE` instead of stdout")
	rest, done, code := parseArgs(e, "keygen", fs, args)
	if done {
		return code
	}
	switch {
	case len(rest) > 0:
		return usageError(e, "keygen", "unexpected argument %q", rest[0])
	case *kid == "":
		return usageError(e, "keygen", "missing --kid ID")
	case *private == "":
		return usageError(e, "keygen", "missing --private FILE")
	case !keys.Algorithm(*alg).Allowed():
		return usageError(e, "keygen", "--alg %q: want ed25519 or ecdsa-p256-sha256", *alg)
	case *use != keys.UseRequestSigning && *use != keys.UseWebhookSigning:
		return usageError(e, "keygen", "--adcp-use %q: want request-signing or webhook-signing", *use)
	}
	if *jwksOut != "" {
		if _, err := os.Lstat(*jwksOut); err == nil {
			return usageError(e, "keygen", "--jwks: %s exists; keygen never overwrites a key", *jwksOut)
		}
	}
	key, pub, err := keys.GenerateKey(keys.Algorithm(*alg), *kid, nil)
	if err != nil {
		return usageError(e, "keygen", "%v", err)
	}
	pub.AdCPUse = *use
	priv, err := keys.MarshalPrivateJWK(key, pub)
	if err != nil {
		return usageError(e, "keygen", "%v", err)
	}
	jwks, err := json.MarshalIndent(&keys.JWKS{Keys: []*keys.JWK{pub}}, "", "  ")
	if err != nil {
		return usageError(e, "keygen", "%v", err)
	}
	jwks = append(jwks, '\n')
	if err := writeNew(*private, append(priv, '\n'), 0o600); err != nil {
		return usageError(e, "keygen", "--private: %v", err)
	}
	if *jwksOut == "" {
		_, _ = e.stdout.Write(jwks)
		return exitOK
	}
	if err := writeNew(*jwksOut, jwks, 0o644); err != nil {
		return usageError(e, "keygen", "--jwks: %v", err)
	}
	return exitOK
}

// writeNew writes data to a file that must not exist yet.
func writeNew(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists; keygen never overwrites a key", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
