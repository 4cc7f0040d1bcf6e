package signing_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/replay"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// createMediaBuy2K is a create_media_buy request body of about 2 KB.
var createMediaBuy2K = func() []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_media_buy","arguments":{"idempotency_key":"9f1c2e4a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","plan_id":"plan_2026_q2_spring","brand":{"domain":"acme.example"},"po_number":"PO-88231","start_time":"2026-05-01T00:00:00Z","end_time":"2026-06-30T23:59:59Z","packages":[`)
	for i := 0; b.Len() < 1900; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"buyer_ref":"pkg-` + strconv.Itoa(i) + `","product_id":"prod_ctv_premium_` + strconv.Itoa(i) + `","pricing_option_id":"cpm_fixed","budget":{"amount":25000,"currency":"USD"},"targeting_overlay":{"geo_country_any_of":["US","CA"]}}`)
	}
	b.WriteString(`]}}}`)
	return []byte(b.String())
}()

// BenchmarkVerify: the whole checklist on a signed 2 KB create_media_buy
// (3.2 profile, content-digest covered: parsing, canonicalization, the
// digest, the key lookup, the replay check and insert, the duplicate-key
// scan) against the bare signature check over the same base. make
// bench-signing prints the ratio; issue 20 wants it at most 1.3 for
// Ed25519.
func BenchmarkVerify(b *testing.B) {
	for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
		p, _ := signing.RequestProfile("3.2.0-beta.5")
		key, jwk, _ := keys.GenerateKey(alg, "bench", nil)
		now := time.Unix(1776520800, 0)
		s, _ := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "bench", Key: key, Now: func() time.Time { return now }})
		sign := func() *signing.Message {
			m := &signing.Message{Method: "POST", URL: "https://seller.example.com/mcp", Header: http.Header{"Content-Type": {"application/json"}}, Body: createMediaBuy2K}
			if err := s.Sign(m); err != nil {
				b.Fatal(err)
			}
			return m
		}
		b.Run(string(alg)+"/bare", func(b *testing.B) {
			m := sign()
			base, _ := signing.SignatureBase(m)
			sig := decodeSig(b, m.Header.Get("Signature"))
			pub, _ := jwk.PublicKey()
			baseBytes := []byte(base)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if !bareVerify(alg, pub, baseBytes, sig) {
					b.Fatal("does not verify")
				}
			}
		})
		b.Run(string(alg)+"/checklist", func(b *testing.B) {
			v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}},
				Replay: replay.NewLocal(0), ReplayLimit: 1 << 30, Now: func() time.Time { return now }})
			ctx := context.Background()
			const batch = 512
			msgs := make([]*signing.Message, batch)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += batch {
				b.StopTimer()
				for j := range msgs {
					msgs[j] = sign()
				}
				b.StartTimer()
				for j := 0; j < batch && i+j < b.N; j++ {
					if _, err := v.Verify(ctx, msgs[j]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkVerifyRatio interleaves the bare signature check and the whole
// checklist on the same messages and reports their ratio (x-bare), which
// other load on the machine affects alike; issue 20 wants it at most 1.3
// for Ed25519. ns/op covers both; bare-ns/op the bare check alone.
func BenchmarkVerifyRatio(b *testing.B) {
	for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
		b.Run(string(alg), func(b *testing.B) {
			p, _ := signing.RequestProfile("3.2.0-beta.5")
			key, jwk, _ := keys.GenerateKey(alg, "bench", nil)
			pub, _ := jwk.PublicKey()
			now := time.Unix(1776520800, 0)
			s, _ := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "bench", Key: key, Now: func() time.Time { return now }})
			v, _ := signing.NewVerifier(signing.VerifierOptions{Profile: p, Keys: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}},
				Replay: replay.NewLocal(0), ReplayLimit: 1 << 30, Now: func() time.Time { return now }})
			ctx := context.Background()
			const batch = 256
			type signed struct {
				m         *signing.Message
				base, sig []byte
			}
			msgs := make([]signed, batch)
			var bare, full time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += batch {
				b.StopTimer()
				for j := range msgs {
					m := &signing.Message{Method: "POST", URL: "https://seller.example.com/mcp", Header: http.Header{"Content-Type": {"application/json"}}, Body: createMediaBuy2K}
					if err := s.Sign(m); err != nil {
						b.Fatal(err)
					}
					base, _ := signing.SignatureBase(m)
					msgs[j] = signed{m, []byte(base), decodeSig(b, m.Header.Get("Signature"))}
				}
				b.StartTimer()
				for j := 0; j < batch && i+j < b.N; j++ {
					t0 := time.Now()
					if !bareVerify(alg, pub, msgs[j].base, msgs[j].sig) {
						b.Fatal("does not verify")
					}
					t1 := time.Now()
					if _, err := v.Verify(ctx, msgs[j].m); err != nil {
						b.Fatal(err)
					}
					full += time.Since(t1)
					bare += t1.Sub(t0)
				}
			}
			b.ReportMetric(float64(full)/float64(bare), "x-bare")
			b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "bare-ns/op")
		})
	}
}

func decodeSig(b *testing.B, h string) []byte {
	v := strings.TrimSuffix(strings.TrimPrefix(h, "sig1=:"), ":")
	sig, err := base64Std.DecodeString(v)
	if err != nil {
		b.Fatal(err)
	}
	return sig
}

func bareVerify(alg keys.Algorithm, pub any, base, sig []byte) bool {
	if alg == keys.Ed25519 {
		return ed25519.Verify(pub.(ed25519.PublicKey), base, sig)
	}
	h := sha256.Sum256(base)
	return ecdsa.Verify(pub.(*ecdsa.PublicKey), h[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:]))
}

func BenchmarkSign(b *testing.B) {
	for _, alg := range []keys.Algorithm{keys.Ed25519, keys.ECDSAP256} {
		b.Run(string(alg), func(b *testing.B) {
			p, _ := signing.RequestProfile("3.2.0-beta.5")
			key, _, _ := keys.GenerateKey(alg, "bench", nil)
			s, _ := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "bench", Key: key})
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				m := &signing.Message{Method: "POST", URL: "https://seller.example.com/mcp", Header: http.Header{"Content-Type": {"application/json"}}, Body: createMediaBuy2K}
				if err := s.Sign(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
