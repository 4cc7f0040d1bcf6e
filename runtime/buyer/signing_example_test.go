package buyer_test

import (
	"context"
	"net/http"
	"os"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

// Signing calls with RFC 9421 as the seller asks: the private JWK
// (adcpgen keygen makes one; a KMS key is any crypto.Signer) and a
// CallSigner under the HTTP client; WithRequestSigning reads the seller's
// request_signing once and signs the operations it lists, with its
// covers_content_digest and the encoding of the version spoken. With your
// generated package, adcp.Spec() takes the place of the test package's.
func ExampleWithRequestSigning() {
	ctx := context.Background()
	jwk, err := os.ReadFile("buyer-2026.jwk") // the private JWK
	if err != nil {
		panic(err)
	}
	key, pub, err := keys.ParsePrivateJWK(jwk)
	if err != nil {
		panic(err)
	}
	cs, err := signing.NewCallSigner(signing.CallSignerOptions{Version: "3.1.19", KeyID: pub.KeyID, Key: key})
	if err != nil {
		panic(err)
	}
	hc := &http.Client{Transport: cs.Transport(nil)} // a2aclient.Dial takes it too
	session, err := mcpclient.ConnectHTTP(ctx, "https://seller.example/mcp", hc, mcpclient.ConnectOptions{})
	if err != nil {
		panic(err)
	}
	defer session.Close()
	c, err := buyer.New(adcpt.Spec(), session, buyer.WithRequestSigning(cs))
	if err != nil {
		panic(err)
	}
	_, _ = c.Invoke(ctx, "get_products", []byte(`{"buying_mode":"brief","brief":"signed if the seller lists get_products"}`))
}
