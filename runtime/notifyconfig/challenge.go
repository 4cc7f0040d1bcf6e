package notifyconfig

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Challenger proves that a subscriber's endpoint is the buyer's before
// it is activated (security.mdx, "Webhook URL validation"): it POSTs a
// webhook.challenge (core/webhook-challenge.json; for agent-level
// subscribers core/agent-webhook-challenge.json, scope "agent") with a
// random single-use value, signed under the seller's RFC 9421 webhook
// key, to the subscriber's URL, and wants the value echoed as
// {"challenge": ...} (or the older {"token": ...}) with a 2xx.
type Challenger struct {
	// Scope is the surface the subscribers belong to: AccountLevel binds
	// the owner as account_id, AgentLevel sends scope "agent".
	Scope Scope
	// Signer signs the challenge POST (the webhook profile key the
	// seller's brand.json publishes).
	Signer *signing.Signer
	// AgentURL is the seller's agent URL, sent as seller_agent_url.
	AgentURL string
	// Client posts the challenge; nil uses untrusted.NewHTTPClient with
	// URLs, which connects to public addresses only.
	Client *http.Client
	// URLs is the webhook URL policy, checked again before the post.
	URLs untrusted.PushURLPolicy
	// Timeout bounds the exchange; 0 means 10 seconds.
	Timeout time.Duration
}

// maxChallengeAnswer bounds the body read back.
const maxChallengeAnswer = 4 << 10

// Prove runs the challenge of c for owner (Options.Prove).
func (ch *Challenger) Prove(ctx context.Context, owner string, c Config) error {
	if ch.Signer == nil {
		return fmt.Errorf("no signer to sign the challenge with")
	}
	if _, err := untrusted.CheckPushURL(c.URL, ch.URLs); err != nil {
		return err
	}
	value := make([]byte, 32)
	if _, err := rand.Read(value); err != nil {
		return err
	}
	challenge := base64.RawURLEncoding.EncodeToString(value)
	body := map[string]any{
		"type":             "webhook.challenge",
		"challenge":        challenge,
		"subscriber_id":    c.SubscriberID,
		"seller_agent_url": ch.AgentURL,
		"delivery_auth":    deliveryAuth(c),
		"event_types":      c.EventTypes,
	}
	if ch.Scope == AgentLevel {
		body["scope"] = "agent"
	} else {
		body["account_id"] = owner
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return err
	}
	timeout := ch.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if err := ch.Signer.SignRequest(req, payload); err != nil {
		return fmt.Errorf("signing the challenge: %w", err)
	}
	client := ch.Client
	if client == nil {
		client = untrusted.NewHTTPClient(untrusted.ClientOptions{Policy: ch.URLs})
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("posting the challenge: %w", err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxChallengeAnswer))
	if err != nil {
		return fmt.Errorf("reading the challenge's answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("the endpoint answered the challenge with HTTP %d", resp.StatusCode)
	}
	v := wire.Lenient(answer)
	got, hasChallenge := v.Get("challenge").AsString()
	token, hasToken := v.Get("token").AsString()
	switch {
	case hasChallenge && hasToken:
		return fmt.Errorf("the endpoint's answer holds both challenge and token")
	case hasToken:
		got = token
	case !hasChallenge:
		return fmt.Errorf("the endpoint's answer echoes no challenge")
	}
	if got != challenge {
		return fmt.Errorf("the endpoint echoed another challenge")
	}
	return nil
}

// deliveryAuth is the challenge's delivery_auth: how later webhooks to c
// are authenticated, the legacy credential bound by its fingerprint.
func deliveryAuth(c Config) map[string]string {
	a := wire.Lenient(c.Entry).Get("authentication")
	scheme, _ := a.Get("schemes").Index(0).AsString()
	cred, _ := a.Get("credentials").AsString()
	if !a.IsObject() || scheme == "" {
		return map[string]string{"mode": "rfc9421"}
	}
	sum := sha256.Sum256([]byte(cred))
	return map[string]string{"mode": scheme, "credential_fingerprint": hex.EncodeToString(sum[:])}
}
