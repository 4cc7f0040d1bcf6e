package revocation_test

import (
	"context"
	"crypto/ed25519"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"
)

var opsKeys = func() keys.Resolver {
	pub, _, _ := ed25519.GenerateKey(nil)
	k, _ := keys.PublicJWK(pub, "ops")
	return keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{k}}}
}()

// FuzzParseList: revocation-list and revocation-JWS parsing never panics.
func FuzzParseList(f *testing.F) {
	f.Add([]byte(`{"version":1,"issuer":"x","updated":"2026-01-01T00:00:00Z","next_update":"2026-01-02T00:00:00Z","revoked_kids":["k"]}`))
	f.Add([]byte(`{"payload":"eyJ2ZXJzaW9uIjoxfQ","signatures":[{"protected":"eyJhbGciOiJFZERTQSIsImtpZCI6Im9wcyIsInR5cCI6ImFkY3AtZ292LXJldm9jYXRpb24randzIn0","signature":"AA"}]}`))
	f.Add([]byte(`eyJhbGciOiJFZERTQSJ9.e30.AA`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = revocation.ParseList(data)
		_, _ = revocation.VerifyJWS(context.Background(), data, opsKeys, "")
	})
}
