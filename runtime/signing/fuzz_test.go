package signing

import (
	"context"
	"crypto/ed25519"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/replay"
)

// FuzzParseDictionary: the RFC 8941 parser never panics, and what it
// accepts serializes to a value it parses to the same serialization.
func FuzzParseDictionary(f *testing.F) {
	for _, s := range []string{
		`sig1=("@method" "@target-uri" "@authority" "content-type");created=1776520800;expires=1776521100;nonce="KXYnfEfJ0PBRZXQyVXfVQA";keyid="test-ed25519-2026";alg="ed25519";tag="adcp/request-signing/v1"`,
		`sig1=:U51PJzU9nMJxMAH_u-UDpSecT5SQX1-deSnWE3XpFo-BLT2_2h5FgMltntNCW05chhmFnjZEzkRmaYKeU0UUBw:`,
		`sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:, sha-512=:AA==:`,
		`a=?0, b, c=-1.25;x="y", d=tok/en:x`, `a=(), b=( 1 2 );p`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := parseDictionary(s)
		if err != nil {
			return
		}
		var b []byte
		for i, m := range ms {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, m.key...)
			b = append(b, '=')
			b = appendItem(b, m.val)
		}
		again, err := parseDictionary(string(b))
		if err != nil {
			t.Fatalf("%q serialized to %q, which does not parse: %v", s, b, err)
		}
		if len(again) != len(ms) {
			t.Fatalf("%q: %d members, then %d", s, len(ms), len(again))
		}
	})
}

// FuzzCanonicalURL: canonicalization never panics and is idempotent.
func FuzzCanonicalURL(f *testing.F) {
	for _, s := range []string{
		"https://Seller.Example.COM:443/a/./b/../c%7e%2f?b=2&a=1#f", "https://[2001:DB8::1]:8443/p?", "http://bücher.example./p",
		"https://user@/p", "https://[fe80::1%25eth0]/p", "https://example.com../p", "https://x/a//../b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		target, authority, err := CanonicalURL(s)
		if err != nil {
			if CodeOf(err) != CodeTargetURIMalformed {
				t.Fatalf("%q: error without the code: %v", s, err)
			}
			return
		}
		t2, a2, err := CanonicalURL(target)
		if err != nil || t2 != target || a2 != authority {
			t.Fatalf("%q → %q (%q) → %q (%q), %v", s, target, authority, t2, a2, err)
		}
	})
}

// FuzzPlainHost holds the ASCII fast path to the IDNA path: whatever
// plainHost accepts, IDNA maps to the same bytes.
func FuzzPlainHost(f *testing.F) {
	for _, s := range []string{"seller.example.com", "Seller.Example.COM.", "a--b.example", "xn--bcher-kva.example", "ab--c.example", "-a.example", "1.2.3.4", "a..b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		fast, ok := plainHost(h)
		if !ok {
			return
		}
		ascii, err := idnaProfile.ToASCII(h)
		if err != nil {
			t.Fatalf("%q: the fast path accepts it, IDNA refuses it: %v", h, err)
		}
		if slow := strings.TrimSuffix(ascii, "."); slow != fast {
			t.Fatalf("%q: fast %q, IDNA %q", h, fast, slow)
		}
	})
}

// FuzzParseJWKS: JWK and JWKS parsing never panics; keys that parse can
// be asked for their public key and purpose (revocation's FuzzParseList
// does revocation lists).
func FuzzParseJWKS(f *testing.F) {
	f.Add([]byte(`{"keys":[{"kid":"a","kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","key_ops":["verify"],"adcp_use":"request-signing","x":"gWUqzATUcUco5Q8fZZXn8aWwb7DQbYGBiqUzLiSDDJo"}]}`))
	f.Add([]byte(`{"keys":[{"kid":"b","kty":"EC","crv":"P-256","alg":"ES256","x":"vGSQmjzPN1txgDY-oBb108gMsRETA9J5IPxqlBczQOY","y":"JGIbsHoOnHLL_LFqGYUW43BYDAqGYrNRZUylkE7rqSU"}]}`))
	f.Add([]byte(`{"keys":[{"kid":1,"adcp_use":["x"],"key_ops":"verify"}]}`))
	f.Add([]byte(`{"payload":"eyJ2ZXJzaW9uIjoxfQ","signatures":[{"protected":"eyJhbGciOiJFZERTQSIsImtpZCI6Im9wcyIsInR5cCI6ImFkY3AtZ292LXJldm9jYXRpb24randzIn0","signature":"AA"}]}`))
	f.Add([]byte(`eyJhbGciOiJFZERTQSJ9.e30.AA`))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := keys.ParseJWKS(data)
		if err == nil {
			for _, k := range set.Keys {
				_, _ = k.PublicKey()
				_ = checkPurpose(k, Profile{kind: Request, keyUses: []string{keys.UseRequestSigning}}, keys.Ed25519)
				_, _ = k.MarshalJSON()
			}
		}
		_, _ = keys.ParseJWK(data)
		_, _, _ = keys.ParsePrivateJWK(data)
	})
}

// FuzzVerify: the checklist never panics on hostile headers and bodies,
// and nothing it refuses reaches the replay store.
func FuzzVerify(f *testing.F) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	jwk, _ := keys.PublicJWK(pub, "k")
	now := time.Unix(1776520800, 0)
	p, _ := RequestProfile("3.1.19")
	s, _ := NewSigner(SignerOptions{Profile: p, KeyID: "k", Key: priv, Now: func() time.Time { return now }})
	m := &Message{Method: "POST", URL: "https://s.example/mcp", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"a":1}`)}
	_ = s.Sign(m)
	f.Add(m.Header.Get("Signature-Input"), m.Header.Get("Signature"), m.Header.Get("Content-Digest"), "s.example", `{"a":1}`)
	f.Add(`sig1=("@method");created=1`, `sig1=:AA:`, "", "s.example", "")
	f.Fuzz(func(t *testing.T, input, sig, digest, host, body string) {
		r := replay.NewLocal(0)
		v, _ := NewVerifier(VerifierOptions{Profile: p, Keys: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}}, Replay: r, Now: func() time.Time { return now }})
		h := http.Header{"Content-Type": {"application/json"}, "Signature-Input": {input}, "Signature": {sig}}
		if digest != "" {
			h.Set("Content-Digest", digest)
		}
		_, err := v.Verify(context.Background(), &Message{Method: "POST", URL: "https://" + strings.ReplaceAll(host, "/", "") + "/mcp", Authority: host, Header: h, Body: []byte(body)})
		if err != nil && r.Len() != 0 && CodeOf(err) != CodeBodyMalformed {
			t.Fatalf("refused (%v) yet the store holds %d", err, r.Len())
		}
	})
}
