package sellertask_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/internal/sellerrig"
	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// On every published version: the webhook capability the version has
// (delivery_retry_horizon_seconds, the outbox's horizon, from 3.2),
// schema-valid in get_adcp_capabilities; and a task's notifications,
// recorded in the outbox with the task's updates and posted signed with
// the version's RFC 9421 webhook profile, reach a receiver of that version
// while it was down at first: verified, decoded, in order, each with its
// own idempotency_key.
func TestWebhooksPerVersion(t *testing.T) {
	for _, v := range specseller.Versions {
		t.Run(v.Version, func(t *testing.T) {
			tree, sp := specseller.Open(t, v.Version)
			key, jwk, err := keys.GenerateKey(keys.Ed25519, "seller-webhook-2026", nil)
			if err != nil {
				t.Fatal(err)
			}
			profile, err := signing.WebhookProfile(v.Version)
			if err != nil {
				t.Fatal(err)
			}
			jwk.AdCPUse = keys.UseWebhookSigning // 3.0's webhook keys; 3.1 and later accept it still
			signer, err := signing.NewSigner(signing.SignerOptions{Profile: profile, KeyID: jwk.KeyID, Key: key})
			if err != nil {
				t.Fatal(err)
			}
			const horizon = 48 * time.Hour
			sender := webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}, Signer: signer,
				Horizon: horizon, Retry: retry.Policy{InitialBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond}})
			block, err := sender.Capability(v.Version)
			if err != nil {
				t.Fatal(err)
			}
			tasks := sellertask.New(sp, sellertask.Options{Store: sellerstore.NewMemory(nil), Sender: sender})
			t.Cleanup(func() { _ = tasks.Close(context.Background()) })
			srv, err := seller.New(sp, seller.Options{Schemas: tree, ValidateResponses: true, Authenticator: sellerrig.Authenticator(), Tasks: tasks,
				Capabilities: json.RawMessage(`{"adcp":{"idempotency":{"supported":true,"replay_ttl_seconds":86400}},` +
					`"account":{"supported_billing":["operator"]},"media_buy":{"supported_pricing_models":["cpm"]},"webhook_signing":` + string(block) + `}`)})
			if err != nil {
				t.Fatal(err)
			}
			tool, _ := sp.Tool("create_media_buy")
			srv.HandleRaw(seller.RawTool{Name: tool.Name, RequestSchema: tool.RequestSchema, ResponseSchema: tool.ResponseSchema,
				Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
					id, err := tasks.Start(ctx, c)
					if err != nil {
						return seller.ErrorAnswer(srv.TaskNotFound(err.Error()))
					}
					return &seller.Answer{Status: task.Submitted, TaskID: id, Body: []byte(`{}`)}
				}})
			buyer := sellerrig.ConnectMCP(t, sellerrig.ServeMCP(t, srv), sellerrig.KeyOf("buyer-a"), extract.New(sp))

			caps := buyer.Call(t.Context(), "get_adcp_capabilities", `{}`)
			if caps.Err != nil || caps.CallErr != nil {
				t.Fatalf("capabilities (validated against %s): %+v %v", v.Version, caps.Err, caps.CallErr)
			}
			got := wire.Lenient(caps.Data).Get("webhook_signing").Get("delivery_retry_horizon_seconds")
			if want := strings.HasPrefix(v.Version, "3.2"); got.Present() != want || (want && string(got) != "172800") {
				t.Fatalf("delivery_retry_horizon_seconds %s (want it from 3.2, the horizon)", got)
			}

			// The buyer's receiver, of the version, down until the task is done.
			verifier, err := signing.NewVerifier(signing.VerifierOptions{Profile: profile,
				Keys: keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}, AgentURL: "https://seller.example/mcp"}, Scheme: "http"})
			if err != nil {
				t.Fatal(err)
			}
			rc := webhook.NewReceiver(sp, webhook.ReceiverOptions{Verifier: verifier, Rejected: func(_ *http.Request, status int, err error) { t.Logf("receiver refused: %d %v", status, err) }})
			var mu sync.Mutex
			var seen []*webhook.Notification
			rc.HandleOther(func(_ context.Context, n *webhook.Notification) error {
				mu.Lock()
				seen = append(seen, n)
				mu.Unlock()
				return nil
			})
			mux := http.NewServeMux()
			mux.Handle("POST /hooks/{task_type}/{operation_id}", rc)
			var up atomic.Bool
			recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !up.Load() {
					http.Error(w, "down", http.StatusServiceUnavailable)
					return
				}
				mux.ServeHTTP(w, r)
			}))
			t.Cleanup(recv.Close)

			request, err := os.ReadFile(filepath.Join("..", "..", "internal", "versions", "testdata", v.Version, "create-media-buy-request.json"))
			if err != nil {
				t.Fatal(err)
			}
			success, err := os.ReadFile(filepath.Join("..", "..", "internal", "versions", "testdata", v.Version, "create-media-buy-success.json"))
			if err != nil {
				t.Fatal(err)
			}
			args := strings.TrimSuffix(strings.TrimSpace(string(request)), "}") +
				`,"push_notification_config":{"url":"` + recv.URL + `/hooks/create_media_buy/op_7","operation_id":"op_7"}}`
			sub := buyer.Call(t.Context(), "create_media_buy", args)
			if sub.Err != nil || sub.CallErr != nil || sub.TaskID == "" {
				t.Fatalf("create_media_buy: %+v %v %s", sub.Err, sub.CallErr, sub.Data)
			}
			if err := tasks.Update(t.Context(), seller.TaskEvent{ID: sub.TaskID, Principal: "buyer-a", Tool: "create_media_buy",
				Answer: &seller.Answer{Status: task.Completed, Message: "Approved.", Body: success}}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond) // the receiver is down: attempts fail
			up.Store(true)
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			if err := tasks.Wait(ctx); err != nil {
				t.Fatalf("the notification was not delivered: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 1 || seen[0].TaskID != sub.TaskID || seen[0].Status != task.Completed || seen[0].IdempotencyKey == "" || seen[0].OperationID != "op_7" {
				t.Fatalf("the receiver handled %d notifications: %+v", len(seen), seen)
			}
		})
	}
}
