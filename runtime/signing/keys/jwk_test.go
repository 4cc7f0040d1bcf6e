package keys_test

import (
	"crypto"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
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
			_, err := keys.ParseJWKS([]byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("err %v, want %q", err, c.err)
			}
		})
	}
	set, err := keys.ParseJWKS([]byte(`{"keys":[` + good + `,` + strings.Replace(good, `"kid":"a"`, `"kid":"b"`, 1) + `,` + strings.Replace(good, `"kid":"a"`, `"kid":"b"`, 1) + `]}`))
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
func TestPrivateJWK(t *testing.T) {
	for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
		key, pub, err := keys.GenerateKey(alg, "k-"+string(alg), nil)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := keys.MarshalPrivateJWK(key, pub)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), `"d":"`) || !strings.Contains(string(doc), `"key_ops":["sign"]`) {
			t.Fatalf("private JWK %s", doc)
		}
		back, pub2, err := keys.ParsePrivateJWK(doc)
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
	k1, p1, _ := keys.GenerateKey(keys.Ed25519, "a", nil)
	k2, _, _ := keys.GenerateKey(keys.Ed25519, "a", nil)
	doc, _ := keys.MarshalPrivateJWK(k2, p1)
	_ = k1
	if _, _, err := keys.ParsePrivateJWK(doc); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("mismatched d: %v", err)
	}
	if _, _, err := keys.GenerateKey("rsa-pss-sha512", "a", nil); err == nil {
		t.Fatal("RSA generated")
	}
}
