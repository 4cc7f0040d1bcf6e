package signedagents

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/signing/discovery"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// A seller's task updates reach the buyer signed with RFC 9421 (the
// registration carries no authentication), on every version: the seller
// publishes its key (seller.Identity over TLS), the buyer's receiver
// fetches it from the jwks_uri (discovery.JWKSEndpoint, the hardened
// fetcher) and verifies each post before its handler sees it. A 3.0
// webhook key carries adcp_use "webhook-signing", as 3.0 receivers
// require; from 3.1 the request-signing key signs webhooks.
func TestTaskWebhooksSignedAndVerified(t *testing.T) {
	for _, v := range versions {
		t.Run(v.version, func(t *testing.T) {
			sp := specOf(t, v.version, v.source)
			key, jwk, err := keys.GenerateKey(keys.ECDSAP256, "seller-webhooks-2026", nil)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(v.version, "3.0.") {
				jwk.AdCPUse = keys.UseWebhookSigning
			}
			// The seller's published identity, over TLS.
			brand := httptest.NewUnstartedServer(nil)
			brand.StartTLS()
			t.Cleanup(brand.Close)
			sellerURL := "https://seller.example/mcp"
			id := &seller.Identity{BrandJSONURL: brand.URL + "/.well-known/brand.json", Keys: &keys.JWKS{Keys: []*keys.JWK{jwk}},
				Agents: []seller.IdentityAgent{{Type: "sales", URL: sellerURL, ID: "seller", JWKSURI: brand.URL + "/.well-known/jwks.json"}}}
			h, err := id.Handler()
			if err != nil {
				t.Fatal(err)
			}
			brand.Config.Handler = h

			// The buyer's receiver: keys from the seller's jwks_uri.
			roots := x509.NewCertPool()
			roots.AddCert(brand.Certificate())
			src := discovery.NewJWKSEndpoint(brand.URL+"/.well-known/jwks.json", sellerURL,
				discovery.JWKSOptions{Fetcher: &discovery.Fetcher{AllowLoopback: true, TLSConfig: &tls.Config{RootCAs: roots}}})
			wp, err := signing.WebhookProfile(v.version)
			if err != nil {
				t.Fatal(err)
			}
			verifier, err := signing.NewVerifier(signing.VerifierOptions{Profile: wp, Keys: src, Scheme: "http"})
			if err != nil {
				t.Fatal(err)
			}
			rc := webhook.NewReceiver(sp, webhook.ReceiverOptions{Verifier: verifier})
			got := make(chan *webhook.Notification, 4)
			rc.HandleOther(func(_ context.Context, n *webhook.Notification) error { got <- n; return nil })
			mux := http.NewServeMux()
			mux.Handle("POST /hooks/{task_type}/{operation_id}", rc)
			buyerSrv := httptest.NewServer(mux)
			t.Cleanup(buyerSrv.Close)

			// The seller: a task manager whose Sender signs.
			signer, err := signing.NewSigner(signing.SignerOptions{Profile: wp, KeyID: jwk.KeyID, Key: key})
			if err != nil {
				t.Fatal(err)
			}
			sender := webhook.NewSender(webhook.SenderOptions{Signer: signer, Policy: untrusted.PushURLPolicy{AllowLoopback: true}, LoopbackOnly: true})
			tasks := sellertask.New(sp, sellertask.Options{Sender: sender})
			srv, err := seller.New(sp, seller.Options{Tasks: tasks})
			if err != nil {
				t.Fatal(err)
			}
			srv.HandleRaw(seller.RawTool{Name: "create_media_buy", Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
				id, err := tasks.Start(ctx, c)
				if err != nil {
					return seller.ErrorAnswer(srv.AuthRequired())
				}
				done := &seller.Answer{Status: task.Completed, TaskID: id, Body: json.RawMessage(`{"media_buy_id":"mb_1","packages":[]}`)}
				if err := tasks.Update(ctx, seller.TaskEvent{ID: id, Principal: c.Principal.ID, Tool: c.Tool.Name, Answer: done}); err != nil {
					t.Error(err)
				}
				return &seller.Answer{Status: task.Submitted, TaskID: id, Body: json.RawMessage(`{}`)}
			}})
			push := `{"push_notification_config":{"url":"` + buyerSrv.URL + `/hooks/create_media_buy/op_1","operation_id":"op_1"}}`
			a := srv.Serve(context.Background(), "create_media_buy", &seller.Call{Arguments: json.RawMessage(push), Principal: seller.Principal{ID: "buyer"}})
			if a.Error != nil || a.Status != task.Submitted {
				t.Fatalf("create: %+v %s", a.Error, a.Body)
			}
			select {
			case n := <-got:
				if n.Signer == nil || n.Signer.KeyID != "seller-webhooks-2026" || n.Signer.AgentURL != sellerURL || n.Status != task.Completed || n.TaskID != a.TaskID || n.IdempotencyKey == "" {
					t.Fatalf("notification %+v signer %+v", n, n.Signer)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no webhook verified")
			}
			waitCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := tasks.Wait(waitCtx); err != nil {
				t.Fatal(err)
			}
			// A seller without a Signer refuses such a registration up front.
			bare := sellertask.New(sp, sellertask.Options{Sender: webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}})})
			if _, err := bare.Start(context.Background(), &seller.Call{Arguments: json.RawMessage(push)}); err == nil || !strings.Contains(err.Error(), "RFC 9421") {
				t.Fatalf("Start without a Signer: %v", err)
			}
		})
	}
}
