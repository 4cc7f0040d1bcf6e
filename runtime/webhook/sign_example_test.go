package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/manifest"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// Webhooks signed with RFC 9421, AdCP's default: the seller's Sender signs
// every post to a push_notification_config without authentication under
// its webhook key; the buyer's Receiver verifies it with the seller's
// public keys (here given; discovery.NewAgent finds them from the seller's
// URL through its brand.json) before the handler sees the payload.
func ExampleReceiver_rfc9421() {
	key, jwk, _ := keys.GenerateKey(keys.Ed25519, "seller-2026", nil) // published in the seller's JWKS
	profile, _ := signing.WebhookProfile("3.1.19")

	verifier, _ := signing.NewVerifier(signing.VerifierOptions{Profile: profile,
		Keys:   keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}, AgentURL: "https://seller.example/mcp"},
		Scheme: "http"}) // this test server's; webhook URLs are https:// in production
	rc := webhook.NewReceiver(manifest.Spec(), webhook.ReceiverOptions{Verifier: verifier})
	done := make(chan struct{})
	rc.HandleOther(func(_ context.Context, n *webhook.Notification) error {
		fmt.Println(n.TaskType, n.Status, "from", n.Signer.AgentURL, "key", n.Signer.KeyID)
		close(done)
		return nil
	})
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks/adcp/{task_type}/{operation_id}", rc)
	buyer := httptest.NewServer(mux)
	defer buyer.Close()

	signer, _ := signing.NewSigner(signing.SignerOptions{Profile: profile, KeyID: "seller-2026", Key: key})
	sender := webhook.NewSender(webhook.SenderOptions{Signer: signer,
		Policy: untrusted.PushURLPolicy{AllowLoopback: true}}) // tests only: production posts to public https URLs
	body, _ := webhook.MCPPayload{IdempotencyKey: webhook.NewEventKey(), OperationID: "op_1", TaskID: "task_1", TaskType: "create_thing",
		Status: task.Completed, Timestamp: time.Now(), Result: []byte(`{"thing":{"thing_id":"th_1"}}`)}.Encode()
	err := sender.Send(context.Background(), webhook.Push{Config: webhook.PushConfig{URL: buyer.URL + "/webhooks/adcp/create_thing/op_1"}, Body: body})
	<-done
	fmt.Println("delivered:", err == nil)
	// Output:
	// create_thing completed from https://seller.example/mcp key seller-2026
	// delivered: true
}
