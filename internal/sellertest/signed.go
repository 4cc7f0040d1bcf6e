package sellertest

import (
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// SignedAgent is the buyer's agent URL a Signed seller maps its signer to,
// the principal its signed calls run as without another credential.
const SignedAgent = "https://buyer.example/mcp"

// Signed is RFC 9421 request verification for the test spec, over plain
// http on loopback: create_media_buy required, list_creatives shadowed
// (warn_for), get_products supported, the protocol method tasks/cancel
// required; and the Signer of the one buyer key it trusts, covering
// content-digest. A seller with these and no Authenticator is the
// signature-only seller: signatures are its only credential.
func Signed(t testing.TB) (*seller.SignedRequests, *signing.Signer) {
	t.Helper()
	key, jwk, err := keys.GenerateKey(keys.Ed25519, "buyer-1", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := signing.RequestProfile(adcpt.Spec().Version())
	if err != nil {
		t.Fatal(err)
	}
	sg, err := signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: "buyer-1", Key: key, CoverDigest: true})
	if err != nil {
		t.Fatal(err)
	}
	return &seller.SignedRequests{
		Policy: signing.OperationPolicy{
			SupportedFor: []string{"create_media_buy", "list_creatives", "get_products"},
			WarnFor:      []string{"list_creatives"},
			RequiredFor:  []string{"create_media_buy"},

			ProtocolMethodsSupportedFor: []string{"tasks/cancel"},
			ProtocolMethodsRequiredFor:  []string{"tasks/cancel"},
		},
		Keys:   keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}, AgentURL: SignedAgent},
		Scheme: "http",
	}, sg
}
