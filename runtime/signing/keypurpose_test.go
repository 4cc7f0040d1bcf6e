package signing_test

import (
	"context"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

func TestKeyPurpose(t *testing.T) {
	p := requestProfile(t, "3.2.0-beta.5")
	for _, c := range []struct {
		name, from, to string
		code           signing.Code
	}{
		{"as published", "", "", ""},
		{"use enc", `"use":"sig"`, `"use":"enc"`, signing.CodeKeyPurposeInvalid},
		{"key_ops sign", `"key_ops":["verify"]`, `"key_ops":["sign"]`, signing.CodeKeyPurposeInvalid},
		{"adcp_use governance", `"adcp_use":"request-signing"`, `"adcp_use":"governance-signing"`, signing.CodeKeyPurposeInvalid},
		{"adcp_use absent", `,"adcp_use":"request-signing"`, ``, signing.CodeKeyPurposeInvalid},
		{"adcp_use as an array", `"adcp_use":"request-signing"`, `"adcp_use":["request-signing","webhook-signing"]`, signing.CodeKeyPurposeInvalid},
		{"alg absent", `"alg":"EdDSA",`, ``, signing.CodeKeyPurposeInvalid},
		{"alg ES256 on an OKP key", `"alg":"EdDSA"`, `"alg":"ES256"`, signing.CodeKeyPurposeInvalid},
		{"EdDSA on crv P-256", `"crv":"Ed25519"`, `"crv":"P-256"`, signing.CodeKeyPurposeInvalid},
		{"x of 33 bytes", `"x":"`, `"x":"AAAA`, signing.CodeKeyPurposeInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, p, keys.Ed25519, nil)
			doc, _ := f.jwk.MarshalJSON()
			mutated := strings.Replace(string(doc), c.from, c.to, 1)
			if c.from != "" && mutated == string(doc) {
				t.Fatalf("%q is not in %s", c.from, doc)
			}
			k, err := keys.ParseJWK([]byte(mutated))
			if err != nil {
				t.Fatal(err)
			}
			v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{k}}}, Now: clock})
			_, err = v.Verify(context.Background(), f.signed(t, `{}`))
			if signing.CodeOf(err) != c.code {
				t.Fatalf("%v, want %s", err, c.code)
			}
		})
	}
}
