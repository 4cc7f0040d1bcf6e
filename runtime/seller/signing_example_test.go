package seller_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// A seller verifying RFC 9421 request signatures: create_media_buy is in
// required_for, so a caller with no other credential must sign it; the
// handler sees the verified signer (its keyid, and the agent its key
// source names) beside the principal. The buyer's key was registered at
// onboarding (keys.Static); discovery's sources find keys from an
// agent's URL instead. Replicas share a replay store (pgstore's Nonces).
func ExampleSignedRequests() {
	buyerKey, jwk, _ := keys.GenerateKey(keys.Ed25519, "buyer-2026", nil)
	srv, err := seller.New(adcpt.Spec(), seller.Options{SignedRequests: &seller.SignedRequests{
		Policy: signing.OperationPolicy{SupportedFor: []string{"create_media_buy"}, RequiredFor: []string{"create_media_buy"}},
		Keys:   keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}, AgentURL: "https://buyer.example/mcp"},
		Scheme: "http", // this test server's; buyers sign https:// URLs in production
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	seller.HandleSync(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResponse, error) {
		p, _ := seller.PrincipalFrom(ctx)
		sg, _ := seller.SignerFrom(ctx)
		fmt.Println("handler: principal", p.ID, "signed by", sg.KeyID)
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_1"})
		return &resp, nil
	})
	h, _ := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	ts := httptest.NewServer(h)
	defer ts.Close()

	profile, _ := signing.RequestProfile(adcpt.Spec().Version()) // the version the seller serves
	signer, _ := signing.NewSigner(signing.SignerOptions{Profile: profile, KeyID: "buyer-2026", Key: buyerKey})
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":` +
		`{"idempotency_key":"k-0123456789abcdef","packages":[{"product_id":"p","budget":5}]}}}`)
	post := func(sign bool) {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sign {
			_ = signer.SignRequest(req, body)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		resp.Body.Close()
		challenge := resp.Header.Get("WWW-Authenticate")
		if challenge == "" {
			challenge = "(no challenge)"
		}
		fmt.Println(resp.StatusCode, challenge)
	}
	post(true)
	post(false)

	capab, _ := srv.SigningCapability()
	block, _ := capab.Block(adcpt.Spec().Version())
	fmt.Println("request_signing:", string(block))
	// Output:
	// handler: principal https://buyer.example/mcp signed by buyer-2026
	// 200 (no challenge)
	// 401 Signature error="request_signature_required"
	// request_signing: {"supported":true,"covers_content_digest":"required","required_for":["create_media_buy"],"warn_for":[],"supported_for":["create_media_buy"],"protocol_methods_required_for":[],"protocol_methods_warn_for":[],"protocol_methods_supported_for":[]}
}
