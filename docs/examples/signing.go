package examples

import (
	"context"
	"crypto"
	"net/http"

	adcp "github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/replay"
)

// SignedSeller is docs/signing.md's seller: get_products answered only to
// a buyer whose RFC 9421 signature verifies against the keys it registered
// (buyers, the JWKS each buyer publishes). find is the seller's catalogue,
// given the verified signer's agent URL. scheme is the one buyers sign
// (https in production; the tests' loopback server's is http).
func SignedSeller(buyers *keys.JWKS, scheme string, find func(agent string, req *adcp.GetProductsRequest) *adcp.GetProductsResponse) (http.Handler, error) {
	// snippet: signed-seller
	srv, err := seller.New(adcp.Spec(), seller.Options{SignedRequests: &seller.SignedRequests{
		Policy: signing.OperationPolicy{SupportedFor: []string{"get_products"}, RequiredFor: []string{"get_products"}},
		Keys:   keys.Static{Set: buyers, AgentURL: "https://buyer.example/mcp"}, // or discovery.NewAgent: keys from the buyer's URL
		Replay: replay.NewLocal(0),                                              // one process; replicas share pgstore's Nonces
		Scheme: scheme,
	}})
	if err != nil {
		return nil, err
	}
	seller.HandleSync(srv, adcp.Tools.GetProducts, func(ctx context.Context, req *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
		sg, _ := seller.SignerFrom(ctx) // the verified signer: its keyid, and the agent its key source names
		return find(sg.AgentURL, req), nil
	})
	return mcpserver.NewStreamableHandler(srv, mcpserver.Options{}) // unsigned get_products: 401, request_signature_required
	// end snippet
}

// SignedBuyer is docs/signing.md's buyer: the README's get_products,
// signed with the agent's key (its keyid published in its JWKS) as the
// seller's request_signing capability asks. It returns the first
// product's name.
func SignedBuyer(ctx context.Context, url, keyID string, key crypto.Signer) (string, error) {
	// snippet: signed-buyer
	cs, err := signing.NewCallSigner(signing.CallSignerOptions{Version: adcp.Spec().Version(), KeyID: keyID, Key: key}) // key: keys.ParsePrivateJWK, or a KMS crypto.Signer
	if err != nil {
		return "", err
	}
	hc := &http.Client{Transport: cs.Transport(nil)} // a2aclient.Dial takes it too
	session, err := mcpclient.ConnectHTTP(ctx, url, hc, mcpclient.ConnectOptions{})
	if err != nil {
		return "", err
	}
	defer session.Close()
	c, err := buyer.New(adcp.Spec(), session, buyer.WithRequestSigning(cs)) // signs what request_signing lists
	if err != nil {
		return "", err
	}
	res, err := buyer.Call(ctx, c, adcp.Tools.GetProducts, &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeBrief, Brief: new("CTV in Q3")})
	// end snippet
	if err != nil {
		return "", err
	}
	return res.Response.Products[0].Name, nil
}
