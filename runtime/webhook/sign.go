package webhook

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// ErrNoSigner: a webhook without a buyer-chosen authentication scheme is
// signed with RFC 9421 (security.mdx "Webhook Security": baseline-required
// since 3.0), and the Sender has no Signer.
var ErrNoSigner = errors.New("webhook: a push_notification_config without authentication is signed with RFC 9421 (adcp/webhook-signing/v1), and SenderOptions.Signer is nil")

// checkSigner refuses an RFC 9421 post the Sender cannot sign.
func (s *Sender) checkSigner() error {
	sg := s.opts.Signer
	if sg == nil {
		return ErrNoSigner
	}
	if k := sg.Profile().Kind(); k != signing.Webhook {
		return fmt.Errorf("webhook: SenderOptions.Signer signs the %s profile; webhooks need signing.WebhookProfile", k)
	}
	return nil
}

// challengeCode is the code of a receiver's RFC 9421 challenge
// (WWW-Authenticate: Signature error="webhook_..."), "" when it sent none.
func challengeCode(resp *http.Response) signing.Code {
	if resp.StatusCode != http.StatusUnauthorized {
		return ""
	}
	for _, v := range resp.Header.Values("WWW-Authenticate") {
		if c, ok := signing.ParseChallenge(v); ok {
			return c
		}
	}
	return ""
}

// Capability is the webhook_signing block of get_adcp_capabilities for
// AdCP version v (security.mdx "Webhook callbacks": baseline with
// programmatic advertisement): signed with the webhook profile under the
// Signer's algorithm, HMAC on request (legacy_hmac_fallback, which the
// Sender supports), and from 3.2 delivery_retry_horizon_seconds: the
// Horizon, at least the 24 hours 3.x receivers retain a delivery key for
// (the schema's minimum; retrying for less is within it). It fails
// without a Signer: a seller that cannot sign must not advertise that it
// does.
func (s *Sender) Capability(v string) (json.RawMessage, error) {
	if err := s.checkSigner(); err != nil {
		return nil, err
	}
	p, err := signing.WebhookProfile(v)
	if err != nil {
		return nil, err
	}
	b := []byte(`{"supported":true,"profile":"` + p.Tag() + `","algorithms":["` + string(s.opts.Signer.Algorithm()) + `"],"legacy_hmac_fallback":true`)
	var major, minor int
	if _, err := fmt.Sscanf(v, "%d.%d", &major, &minor); err == nil && minor >= 2 {
		horizon := max(int64(DefaultDedupRetention/time.Second), int64(s.opts.Horizon/time.Second), int64(s.opts.Retry.MaxElapsed/time.Second))
		b = append(b, `,"delivery_retry_horizon_seconds":`...)
		b = strconv.AppendInt(b, horizon, 10)
	}
	return append(b, '}'), nil
}
