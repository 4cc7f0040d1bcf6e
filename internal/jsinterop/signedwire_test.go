package jsinterop_test

// Signed agents across SDKs, end to end over HTTP: adcpgen's typed buyer
// signing its calls for a seller on @adcp/sdk that verifies them, and an
// adcpgen seller's task webhooks verified by a receiver on @adcp/sdk.

import (
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/jsinterop"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// spec3026 is 3.0.26's tool table (no generated types: the calls here are
// untyped).
func spec3026(t *testing.T) *registry.Spec {
	t.Helper()
	tree, err := spec.Open(testspec.Path(t, "protocol", "3.0.26.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	sp, _, err := generator.SpecTable(tree)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

const signedBuy = `{"account":{"account_id":"acc_test"},"brand":{"domain":"acme.example"},"po_number":"po-signed",` +
	`"start_time":"2027-01-01T00:00:00Z","end_time":"2027-01-31T00:00:00Z",` +
	`"packages":[{"product_id":"prod_display_ron","budget":1000,"pricing_option_id":"cpm_usd"}]}`

// adcpgen's buyer (runtime/buyer over runtime/mcpclient, its HTTP client's
// Transport a signing.CallSigner) signs create_media_buy for a seller on
// @adcp/sdk that requires it, in the 3.0 and 3.1 encodings the SDK's
// verifier reads: the SDK's verifier accepts the call, and refuses the
// same call unsigned with request_signature_required.
func TestGoBuyerSignsForJSSeller(t *testing.T) {
	sp := spec3026(t)
	key, jwk, err := keys.GenerateKey(keys.Ed25519, "go-buyer-2026", nil)
	if err != nil {
		t.Fatal(err)
	}
	jwks, _ := (&keys.JWKS{Keys: []*keys.JWK{jwk}}).MarshalJSON()
	s := jsinterop.StartSeller(t, jsinterop.SellerOptions{SignedRequests: &jsinterop.SellerSignedRequests{
		JWKS: jwks, RequiredFor: []string{"create_media_buy"}}})
	capab := signing.Capability{Supported: true, CoversContentDigest: signing.DigestEither,
		Policy: signing.OperationPolicy{SupportedFor: []string{"create_media_buy"}, RequiredFor: []string{"create_media_buy"}}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	call := func(t *testing.T, cs *signing.CallSigner) (*buyer.Reply, error) {
		t.Helper()
		sess, err := mcpclient.ConnectHTTP(ctx, s.MCPURL, &http.Client{Transport: cs.Transport(nil)}, mcpclient.ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		c, err := buyer.New(sp, sess, buyer.WithoutRetries())
		if err != nil {
			t.Fatal(err)
		}
		return c.Invoke(ctx, "create_media_buy", json.RawMessage(signedBuy))
	}
	for _, version := range []string{"3.0.26", "3.1.19"} {
		t.Run(version, func(t *testing.T) {
			cs, err := signing.NewCallSigner(signing.CallSignerOptions{Version: version, KeyID: jwk.KeyID, Key: key})
			if err != nil {
				t.Fatal(err)
			}
			if err := cs.Use(capab); err != nil {
				t.Fatal(err)
			}
			out, err := call(t, cs)
			if err != nil || out.Status != task.Completed {
				t.Fatalf("signed create_media_buy: %v %+v", err, out)
			}
		})
	}
	unsigned, _ := signing.NewCallSigner(signing.CallSignerOptions{Version: "3.0.26", KeyID: jwk.KeyID, Key: key}) // no capability: signs nothing
	_, err = call(t, unsigned)
	var te *buyer.TransportError
	if !errors.As(err, &te) || te.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unsigned create_media_buy: %v, want HTTP 401", err)
	}
}

// An adcpgen seller's task webhook (sellertask's Manager and webhook's
// Sender, RFC 9421 by default) is verified by a receiver on @adcp/sdk's
// verifyWebhookSignature; signed with a key the receiver does not know, it
// is refused with webhook_signature_key_unknown and the Sender stops at
// that answer, without retrying.
func TestGoSellerWebhooksToJSReceiver(t *testing.T) {
	sp := spec3026(t)
	// @adcp/sdk 6.11's webhook verifier is 3.0's: adcp_use "webhook-signing".
	key, jwk, err := keys.GenerateKey(keys.ECDSAP256, "go-seller-webhooks", nil)
	if err != nil {
		t.Fatal(err)
	}
	jwk.AdCPUse = keys.UseWebhookSigning
	jwks, _ := (&keys.JWKS{Keys: []*keys.JWK{jwk}}).MarshalJSON()
	rcv := jsinterop.StartWebhookReceiver(t, jwks)
	other, _, _ := keys.GenerateKey(keys.Ed25519, "not-published", nil)
	wp, _ := signing.WebhookProfile("3.0.26")
	for _, tc := range []struct {
		name, kid string
		key       crypto.Signer
		code      string // "" for a post that verifies
	}{
		{"published key", jwk.KeyID, key, ""},
		{"unknown key", "not-published", other, "webhook_signature_key_unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			signer, err := signing.NewSigner(signing.SignerOptions{Profile: wp, KeyID: tc.kid, Key: tc.key})
			if err != nil {
				t.Fatal(err)
			}
			sender := webhook.NewSender(webhook.SenderOptions{Signer: signer, Policy: untrusted.PushURLPolicy{AllowLoopback: true}, LoopbackOnly: true, Retry: retry.Policy{InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}})
			tasks := sellertask.New(sp, sellertask.Options{Sender: sender})
			srv, err := seller.New(sp, seller.Options{Tasks: tasks})
			if err != nil {
				t.Fatal(err)
			}
			srv.HandleRaw(seller.RawTool{Name: "create_media_buy", Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
				id, err := tasks.Start(ctx, c)
				if err != nil {
					t.Error(err)
					return seller.ErrorAnswer(srv.AuthRequired())
				}
				done := &seller.Answer{Status: task.Completed, TaskID: id, Body: json.RawMessage(`{"media_buy_id":"mb_1","packages":[]}`)}
				if err := tasks.Update(ctx, seller.TaskEvent{ID: id, Principal: c.Principal.ID, Tool: c.Tool.Name, Answer: done}); err != nil {
					t.Error(err)
				}
				return &seller.Answer{Status: task.Submitted, TaskID: id, Body: json.RawMessage(`{}`)}
			}})
			push := `{"push_notification_config":{"url":"` + rcv.URL + `/webhooks/create_media_buy/op_1","operation_id":"op_1"}}`
			if a := srv.Serve(context.Background(), "create_media_buy", &seller.Call{Arguments: json.RawMessage(push)}); a.Error != nil {
				t.Fatal(a.Error)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			post, err := rcv.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if post.OK != (tc.code == "") || post.Code != tc.code || post.Path != "/webhooks/create_media_buy/op_1" || post.IdempotencyKey == "" {
				t.Fatalf("the receiver made of it %+v, want code %q", post, tc.code)
			}
			if post.OK && post.KeyID != jwk.KeyID {
				t.Fatalf("keyid %q", post.KeyID)
			}
			if err := tasks.Wait(ctx); err != nil {
				t.Fatal(err)
			}
			quiet, stop := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer stop()
			if again, err := rcv.Next(quiet); err == nil {
				t.Fatalf("a second post after the receiver's answer: %+v", again)
			}
		})
	}
}
