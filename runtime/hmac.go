package runtime

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Legacy webhook signing: HMAC-SHA256, keyed with the shared secret's bytes,
// over "<timestamp>.<raw body>" (the published vectors fix the '.'
// separator), sent as "sha256=<hex>". AdCP 3.0 deprecates it in favour of the RFC 9421 webhook
// profile and removes it in 4.0; it is selected when a buyer sets
// push_notification_config.authentication.credentials.

// HMAC parameters.
const (
	HMACSignaturePrefix = "sha256="
	MinHMACSecretBytes  = 32
	DefaultHMACWindow   = 300 * time.Second
)

// Webhook HMAC failures. Configuration: ErrSecretTooShort, ErrSecretWeak.
// Verification: ErrSignatureMissing, ErrSignatureMalformed,
// ErrTimestampInvalid, ErrTimestampSkew, ErrSignatureMismatch and
// ErrBodyMalformed (a body whose signature is valid but which holds
// duplicate object keys; distinct from a mismatch). Signing:
// ErrDuplicateKeyInput.
var (
	ErrSecretTooShort     = errors.New("webhook secret is shorter than 32 bytes")
	ErrSecretWeak         = errors.New("webhook secret has no entropy (a repeated byte or short pattern)")
	ErrSignatureMissing   = errors.New("webhook signature is missing")
	ErrSignatureMalformed = errors.New(`webhook signature is not "sha256=" followed by 64 hex digits`)
	ErrTimestampInvalid   = errors.New("webhook timestamp is not a decimal number of Unix seconds")
	ErrTimestampSkew      = errors.New("webhook timestamp is outside the accepted window")
	ErrSignatureMismatch  = errors.New("webhook signature does not match")
	ErrBodyMalformed      = errors.New("webhook body is malformed: duplicate object keys")
	ErrDuplicateKeyInput  = errors.New("refusing to sign a body with duplicate object keys")
)

// WebhookHMAC signs and verifies legacy HMAC-SHA256 webhook signatures.
type WebhookHMAC struct {
	secret []byte
	// Window is the largest accepted distance between the timestamp and
	// now, in either direction; 0 means 300 seconds.
	Window time.Duration
	// Now is the verifier's clock; nil means time.Now.
	Now func() time.Time
}

// NewWebhookHMAC checks the shared secret (at least 32 bytes, not one
// repeated byte or a pattern of up to 4 bytes) and returns a signer and
// verifier. The secret is copied.
func NewWebhookHMAC(secret []byte) (*WebhookHMAC, error) {
	if len(secret) < MinHMACSecretBytes {
		return nil, fmt.Errorf("%w (got %d)", ErrSecretTooShort, len(secret))
	}
	if weakSecret(secret) {
		return nil, ErrSecretWeak
	}
	return &WebhookHMAC{secret: append([]byte(nil), secret...)}, nil
}

func weakSecret(s []byte) bool {
	for period := 1; period <= 4; period++ {
		repeats := true
		for i := period; i < len(s); i++ {
			if s[i] != s[i-period] {
				repeats = false
				break
			}
		}
		if repeats {
			return true
		}
	}
	return false
}

func (h *WebhookHMAC) mac(timestamp string, body []byte) []byte {
	m := hmac.New(sha256.New, h.secret)
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Sign returns the signature header value for body sent at timestamp (Unix
// seconds). Sign the bytes you put on the wire, never a re-serialisation. A
// body with duplicate object keys at any depth is refused with
// ErrDuplicateKeyInput before anything is computed.
func (h *WebhookHMAC) Sign(timestamp int64, body []byte) (string, error) {
	if err := checkDuplicateKeys(body); err != nil {
		return "", fmt.Errorf("%w: %w", ErrDuplicateKeyInput, err)
	}
	return HMACSignaturePrefix + hex.EncodeToString(h.mac(strconv.FormatInt(timestamp, 10), body)), nil
}

// Verify checks a signature header value against the timestamp header value
// and the raw body, in this order: signature present, timestamp numeric and
// within Window of Now, signature well-formed, HMAC equal (constant-time),
// body free of duplicate keys. An empty signature is missing.
func (h *WebhookHMAC) Verify(timestamp string, body []byte, signature string) error {
	if signature == "" {
		return ErrSignatureMissing
	}
	ts, err := parseUnixSeconds(timestamp)
	if err != nil {
		return err
	}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	window := h.Window
	if window <= 0 {
		window = DefaultHMACWindow
	}
	if skew := now().Unix() - ts; skew > int64(window/time.Second) || -skew > int64(window/time.Second) {
		return fmt.Errorf("%w (%d seconds from now, window %s)", ErrTimestampSkew, -skew, window)
	}
	hexSig, ok := cutPrefix(signature, HMACSignaturePrefix)
	if !ok || len(hexSig) != 2*sha256.Size {
		return ErrSignatureMalformed
	}
	sig, err := hex.DecodeString(hexSig)
	if err != nil {
		return ErrSignatureMalformed
	}
	if !hmac.Equal(sig, h.mac(timestamp, body)) {
		return ErrSignatureMismatch
	}
	if err := checkDuplicateKeys(body); err != nil {
		return fmt.Errorf("%w: %w", ErrBodyMalformed, err)
	}
	return nil
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return s, false
	}
	return s[len(prefix):], true
}

func parseUnixSeconds(s string) (int64, error) {
	if s == "" || len(s) > 18 {
		return 0, ErrTimestampInvalid
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, ErrTimestampInvalid
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, ErrTimestampInvalid
	}
	return n, nil
}
