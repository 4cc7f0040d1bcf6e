package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// HMAC parameters.
const (
	SignaturePrefix = "sha256="
	MinSecretBytes  = 32
	DefaultWindow   = 300 * time.Second
)

// HMAC failures. Configuration: ErrSecretTooShort, ErrSecretWeak.
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

// HMAC signs and verifies legacy HMAC-SHA256 webhook signatures.
type HMAC struct {
	secret []byte
	// Window is the largest accepted distance between the timestamp and
	// now, in either direction; 0 means 300 seconds.
	Window time.Duration
	// Now is the verifier's clock; nil means time.Now.
	Now func() time.Time
}

// NewHMAC checks the shared secret (at least 32 bytes, not one
// repeated byte or a pattern of up to 4 bytes) and returns a signer and
// verifier. The secret is copied.
func NewHMAC(secret []byte) (*HMAC, error) {
	if len(secret) < MinSecretBytes {
		return nil, fmt.Errorf("%w (got %d)", ErrSecretTooShort, len(secret))
	}
	if weakSecret(secret) {
		return nil, ErrSecretWeak
	}
	return &HMAC{secret: append([]byte(nil), secret...)}, nil
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

func (h *HMAC) mac(timestamp string, body []byte) []byte {
	m := hmac.New(sha256.New, h.secret)
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Sign returns the signature header value for body sent at timestamp (Unix
// seconds). Sign the bytes you put on the wire, never a re-serialisation. A
// body with duplicate object keys at any depth is refused with
// ErrDuplicateKeyInput (wrapping the *wire.DecodeError that names the key)
// before anything is computed.
func (h *HMAC) Sign(timestamp int64, body []byte) (string, error) {
	if err := wire.DuplicateKey(body); err != nil {
		return "", fmt.Errorf("%w: %w", ErrDuplicateKeyInput, err)
	}
	return SignaturePrefix + hex.EncodeToString(h.mac(strconv.FormatInt(timestamp, 10), body)), nil
}

// Verify checks a signature header value against the timestamp header value
// and the raw body, in this order: signature present, timestamp numeric and
// within Window of Now, signature well-formed, HMAC equal (constant-time),
// body free of duplicate keys. An empty signature is missing.
func (h *HMAC) Verify(timestamp string, body []byte, signature string) error {
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
		window = DefaultWindow
	}
	if skew := now().Unix() - ts; skew > int64(window/time.Second) || -skew > int64(window/time.Second) {
		return fmt.Errorf("%w (%d seconds from now, window %s)", ErrTimestampSkew, -skew, window)
	}
	hexSig, ok := cutPrefix(signature, SignaturePrefix)
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
	if err := wire.DuplicateKey(body); err != nil {
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
