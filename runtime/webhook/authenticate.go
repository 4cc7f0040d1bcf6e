package webhook

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// sender is who a post was authenticated as.
type sender struct {
	// identity scopes the post's idempotency_key: the RFC 9421 signer's
	// agent URL (its keyid when the key source names none), "hmac" for the
	// shared secret, "" for an unsigned post.
	identity string
	signer   *signing.VerifiedSigner
	// hmacKey is the accepted HMAC signature, remembered against replay.
	hmacKey string
}

// authenticate checks a post's signature on the path its registration
// chose (security.mdx "Mode selection is a switch, not both"): the legacy
// HMAC when the registration carried authentication, else RFC 9421. A post
// signed the other way is refused with webhook_mode_mismatch, never tried
// on the other path.
func (rc *Receiver) authenticate(r *http.Request, body []byte) (sender, *ReceiveError) {
	v, h := rc.opts.Verifier, rc.opts.HMAC
	legacy := h != nil && (v == nil || (rc.opts.Legacy != nil && rc.opts.Legacy(r)))
	has9421 := r.Header.Get("Signature") != "" || r.Header.Get("Signature-Input") != ""
	hasHMAC := r.Header.Get(SignatureHeader) != ""
	switch {
	case legacy:
		if has9421 {
			return sender{}, mismatch("an RFC 9421 signature on a registration that asked for HMAC")
		}
		return rc.checkHMAC(r, body)
	case v != nil:
		if hasHMAC {
			return sender{}, mismatch("an HMAC signature on a registration that asked for RFC 9421")
		}
		return rc.check9421(v, r, body)
	}
	return sender{}, nil // neither configured: unsigned posts accepted
}

func mismatch(why string) *ReceiveError {
	return &ReceiveError{Status: http.StatusUnauthorized, Code: signing.CodeWebhookModeMismatch, Err: fmt.Errorf("%w: %s", ErrModeMismatch, why)}
}

func (rc *Receiver) checkHMAC(r *http.Request, body []byte) (sender, *ReceiveError) {
	sig := r.Header.Get(SignatureHeader)
	if err := rc.opts.HMAC.Verify(r.Header.Get(TimestampHeader), body, sig); err != nil {
		if errors.Is(err, ErrBodyMalformed) {
			return sender{}, refuse(http.StatusBadRequest, err)
		}
		return sender{}, refuse(http.StatusUnauthorized, err)
	}
	key := strings.ToLower(sig)
	switch rc.sigs.add(key, "", rc.now()) {
	case seenFull:
		return sender{}, refuse(http.StatusServiceUnavailable, ErrReplayMemoryFull)
	case seenDone, seenPending:
		return sender{}, refuse(http.StatusConflict, ErrReplayed)
	}
	return sender{identity: "hmac", hmacKey: key}, nil
}

// check9421 runs the webhook verifier checklist: every refusal is a 401
// with its webhook_* code (an unsigned post is
// webhook_signature_header_malformed); a failing replay store or
// revocation source is a 503, so the seller retries.
func (rc *Receiver) check9421(v *signing.Verifier, r *http.Request, body []byte) (sender, *ReceiveError) {
	if v.Profile().Kind() != signing.Webhook {
		return sender{}, refuse(http.StatusInternalServerError, fmt.Errorf("webhook: ReceiverOptions.Verifier verifies the %s profile; webhooks need signing.WebhookProfile", v.Profile().Kind()))
	}
	signer, err := v.VerifyRequest(r, body)
	switch {
	case errors.Is(err, signing.ErrUnsigned):
		return sender{}, &ReceiveError{Status: http.StatusUnauthorized, Code: signing.CodeWebhookHeaderMalformed, Err: err}
	case signing.CodeOf(err) != "":
		return sender{}, &ReceiveError{Status: http.StatusUnauthorized, Code: signing.CodeOf(err), Err: err}
	case err != nil:
		return sender{}, refuse(http.StatusServiceUnavailable, fmt.Errorf("%w: %w", ErrVerifier, err))
	}
	id := signer.AgentURL
	if id == "" {
		id = "keyid:" + signer.KeyID
	}
	return sender{identity: id, signer: signer}, nil
}

// payloadFingerprint identifies a payload for the delivery-key binding:
// the SHA-256 of its canonical JSON (sellerstore.Canonical: a retry the
// sender serialized again, keys reordered or spaces added, is the same
// payload). The body is strict JSON already.
func payloadFingerprint(body []byte) string {
	c, err := sellerstore.Canonical(body)
	if err != nil {
		c = body
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]) // text: a store keeps it in a text column
}
