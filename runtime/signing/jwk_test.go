package signing_test

import (
	"context"
	"crypto"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

func TestParseJWKS(t *testing.T) {
	good := `{"kid":"a","kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","key_ops":["verify"],"adcp_use":"request-signing","x":"gWUqzATUcUco5Q8fZZXn8aWwb7DQbYGBiqUzLiSDDJo"}`
	for _, c := range []struct {
		name, doc, err string
	}{
		{"duplicate member", `{"keys":[{"kid":"a","kid":"b"}]}`, "duplicate key"},
		{"duplicate escaped member", `{"keys":[],"k\u0065ys":[]}`, "duplicate key"},
		{"no keys array", `{"keys":{}}`, "keys array"},
		{"entry not an object", `{"keys":[1]}`, "/keys/0"},
		{"trailing garbage", `{"keys":[]} x`, "unexpected"},
		{"__proto__", `{"keys":[],"__proto__":{}}`, "forbidden"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := signing.ParseJWKS([]byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("err %v, want %q", err, c.err)
			}
		})
	}
	set, err := signing.ParseJWKS([]byte(`{"keys":[` + good + `,` + strings.Replace(good, `"kid":"a"`, `"kid":"b"`, 1) + `,` + strings.Replace(good, `"kid":"a"`, `"kid":"b"`, 1) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	if set.Lookup("a") == nil || set.Lookup("b") != nil || set.Lookup("c") != nil {
		t.Fatal("a kid published twice must resolve to no key")
	}
	out, _ := set.Keys[0].MarshalJSON()
	if string(out) != `{"kid":"a","kty":"OKP","crv":"Ed25519","x":"gWUqzATUcUco5Q8fZZXn8aWwb7DQbYGBiqUzLiSDDJo","alg":"EdDSA","use":"sig","key_ops":["verify"],"adcp_use":"request-signing"}` {
		t.Fatalf("MarshalJSON %s", out)
	}
}

// TestKeyPurpose is step 8 over keys that are wrong in one way each.
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
			f := newFixture(t, p, signing.Ed25519, nil)
			doc, _ := f.jwk.MarshalJSON()
			mutated := strings.Replace(string(doc), c.from, c.to, 1)
			if c.from != "" && mutated == string(doc) {
				t.Fatalf("%q is not in %s", c.from, doc)
			}
			k, err := signing.ParseJWK([]byte(mutated))
			if err != nil {
				t.Fatal(err)
			}
			v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: signing.StaticKeys{Set: &signing.JWKS{Keys: []*signing.JWK{k}}}, Now: clock})
			_, err = v.Verify(context.Background(), f.signed(t, `{}`))
			if signing.CodeOf(err) != c.code {
				t.Fatalf("%v, want %s", err, c.code)
			}
		})
	}
}

func TestPrivateJWK(t *testing.T) {
	for _, alg := range []signing.Algorithm{signing.Ed25519, signing.ECDSAP256} {
		key, pub, err := signing.GenerateKey(alg, "k-"+string(alg), nil)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := signing.MarshalPrivateJWK(key, pub)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), `"d":"`) || !strings.Contains(string(doc), `"key_ops":["sign"]`) {
			t.Fatalf("private JWK %s", doc)
		}
		back, pub2, err := signing.ParsePrivateJWK(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !back.Public().(interface{ Equal(crypto.PublicKey) bool }).Equal(key.Public()) || pub2.X != pub.X || pub2.KeyOps[0] != "verify" {
			t.Fatal("round trip changed the key")
		}
		pubDoc, _ := pub.MarshalJSON()
		if strings.Contains(string(pubDoc), `"d"`) {
			t.Fatal("the public JWK carries d")
		}
	}
	// d of another key
	k1, p1, _ := signing.GenerateKey(signing.Ed25519, "a", nil)
	k2, _, _ := signing.GenerateKey(signing.Ed25519, "a", nil)
	doc, _ := signing.MarshalPrivateJWK(k2, p1)
	_ = k1
	if _, _, err := signing.ParsePrivateJWK(doc); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("mismatched d: %v", err)
	}
	if _, _, err := signing.GenerateKey("rsa-pss-sha512", "a", nil); err == nil {
		t.Fatal("RSA generated")
	}
}
