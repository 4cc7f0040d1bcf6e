package webhook

import (
	"errors"
	"fmt"
	"net/http"

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
