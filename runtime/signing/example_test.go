package signing_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// An agent generates a key, publishes the public half, signs a request;
// the seller verifies it against the published JWKS.
func Example() {
	// The buyer's agent, once: a key pair, and the JWKS to publish at the
	// jwks_uri of its brand.json agents[] entry.
	key, pub, err := keys.GenerateKey(keys.Ed25519, "buyer-2026-05", nil)
	if err != nil {
		panic(err)
	}
	jwks, _ := (&keys.JWKS{Keys: []*keys.JWK{pub}}).MarshalJSON()

	// Both ends pick the profile of the AdCP version the seller serves.
	profile, _ := signing.RequestProfile("3.2.0-beta.5")

	signer, _ := signing.NewSigner(signing.SignerOptions{Profile: profile, KeyID: "buyer-2026-05", Key: key})
	m := &signing.Message{
		Method: "POST",
		URL:    "https://seller.example.com/mcp",
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{}}}`),
	}
	if err := signer.Sign(m); err != nil {
		panic(err)
	}

	// The seller, with the buyer's keys.
	set, _ := keys.ParseJWKS(jwks)
	verifier, _ := signing.NewVerifier(signing.VerifierOptions{
		Profile: profile,
		Keys:    keys.Static{Set: set, AgentURL: "https://buyer.example.com/agent"},
	})
	who, err := verifier.Verify(context.Background(), m)
	fmt.Println(who.KeyID, who.AgentURL, err)

	// The same message again is a replay.
	_, err = verifier.Verify(context.Background(), m)
	fmt.Println(signing.CodeOf(err))
	// Output:
	// buyer-2026-05 https://buyer.example.com/agent <nil>
	// request_signature_replayed
}

// A seller's HTTP middleware: read the exact body, decide, answer 401 with
// the code, or hand the verified signer on.
func ExampleVerifier_Decide() {
	key, pub, _ := keys.GenerateKey(keys.ECDSAP256, "buyer-1", nil)
	profile, _ := signing.RequestProfile("3.1.19")
	verifier, _ := signing.NewVerifier(signing.VerifierOptions{
		Profile: profile,
		Keys:    keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{pub}}, AgentURL: "https://buyer.example.com/agent"},
		Scheme:  "http", // this test server has no TLS
	})
	policy := signing.OperationPolicy{SupportedFor: []string{"create_media_buy"}, RequiredFor: []string{"create_media_buy"}}

	seller := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, signing.DefaultMaxSignedBodyBytes+1))
		mode := policy.Mode(signing.InvocationFromJSONRPC(body))
		bearer := r.Header.Get("Authorization") == "Bearer good-token"
		d := verifier.Decide(r.Context(), signing.MessageFromRequest(r, body, "http"), mode, bearer)
		switch d.Verdict {
		case signing.Accept, signing.AcceptWithWarning:
			if d.Signer != nil {
				fmt.Fprintf(w, "signed by %s", d.Signer.AgentURL)
			} else {
				fmt.Fprint(w, "bearer")
			}
		case signing.Reject:
			signing.WriteChallenge(w, d.Err)
		case signing.Unauthenticated:
			http.Error(w, "unauthenticated", http.StatusUnauthorized)
		default:
			http.Error(w, "try again", http.StatusServiceUnavailable)
		}
	}))
	defer seller.Close()

	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{}}}`
	signer, _ := signing.NewSigner(signing.SignerOptions{Profile: profile, KeyID: "buyer-1", Key: key})
	signed := &http.Client{Transport: signer.Transport(nil, nil)}
	for _, c := range []struct {
		client *http.Client
		auth   string
	}{{signed, ""}, {http.DefaultClient, ""}, {http.DefaultClient, "Bearer good-token"}} {
		req, _ := http.NewRequest("POST", seller.URL+"/mcp", strings.NewReader(call))
		req.Header.Set("Content-Type", "application/json")
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := c.client.Do(req)
		if err != nil {
			panic(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"), string(bytes.TrimSpace(b)))
	}
	// Output:
	// 200  signed by https://buyer.example.com/agent
	// 401 Signature error="request_signature_required" {"error":"request_signature_required"}
	// 200  bearer
}

// AdCP's URL canonicalization, as signers and verifiers apply it.
func ExampleCanonicalURL() {
	for _, u := range []string{
		"HTTPS://Seller.Example.COM:443/adcp/./create_media_buy?b=2&a=1",
		"https://bücher.example./p/%7euser/a//b",
		"https://[2001:DB8::1]:8443/p?",
		"https://example.com../p",
	} {
		target, authority, err := signing.CanonicalURL(u)
		if err != nil {
			fmt.Println(signing.CodeOf(err))
			continue
		}
		fmt.Println(target, authority)
	}
	// Output:
	// https://seller.example.com/adcp/create_media_buy?b=2&a=1 seller.example.com
	// https://xn--bcher-kva.example/p/~user/a//b xn--bcher-kva.example
	// https://[2001:db8::1]:8443/p? [2001:db8::1]:8443
	// request_target_uri_malformed
}

// What differs between versions travels in the Profile.
func ExampleWebhookProfile() {
	for _, v := range []string{"3.0.26", "3.1.19", "3.2.0-beta.5"} {
		req, _ := signing.RequestProfile(v)
		wh, _ := signing.WebhookProfile(v)
		fmt.Printf("%s: requests %s, digest %s; webhooks %s, keys %q\n", v, req.Encoding(), req.Digest(), wh.Encoding(), wh.KeyUses())
	}
	// Output:
	// 3.0.26: requests legacy base64url, digest either; webhooks legacy base64url, keys ["webhook-signing"]
	// 3.1.19: requests legacy base64url, digest either; webhooks legacy base64url, keys ["request-signing" "webhook-signing"]
	// 3.2.0-beta.5: requests RFC 8941 sf-binary, digest required; webhooks legacy base64url, keys ["request-signing" "webhook-signing"]
}
