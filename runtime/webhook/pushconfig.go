package webhook

import (
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Legacy authentication schemes of push_notification_config.authentication.
const (
	SchemeHMAC   = "HMAC-SHA256"
	SchemeBearer = "Bearer"
)

// PushConfig is what a seller needs from a request's
// push_notification_config to post webhooks: where, how to authenticate,
// and what to echo.
type PushConfig struct {
	URL string
	// OperationID and Token are echoed into every payload.
	OperationID string
	Token       string
	// Scheme is SchemeHMAC, SchemeBearer, or "" when the buyer sent no
	// authentication block.
	Scheme      string
	Credentials string
}

// ParsePushConfig reads a push_notification_config object (strict JSON;
// the request decoder has checked it against the version's schema, this
// reads only the members a sender needs). A missing url, or an
// authentication block without one of the two legacy schemes and its
// credentials, is an error.
func ParsePushConfig(raw []byte) (PushConfig, error) {
	if err := wire.Valid(raw); err != nil {
		return PushConfig{}, fmt.Errorf("push_notification_config: %w", err)
	}
	v := wire.Lenient(raw)
	if !v.IsObject() {
		return PushConfig{}, fmt.Errorf("push_notification_config: not an object")
	}
	var c PushConfig
	for _, f := range [...]struct {
		key string
		dst *string
	}{{"url", &c.URL}, {"operation_id", &c.OperationID}, {"token", &c.Token}} {
		if err := optionalString(v, f.key, f.dst); err != nil {
			return PushConfig{}, fmt.Errorf("push_notification_config%w", err)
		}
	}
	if c.URL == "" {
		return PushConfig{}, fmt.Errorf("push_notification_config: no url")
	}
	auth := v.Get("authentication")
	if !auth.Present() || auth.IsNull() {
		return c, nil
	}
	schemes := auth.Get("schemes")
	n := 0
	schemes.Elems(func(s wire.Lenient) bool {
		n++
		c.Scheme, _ = s.AsString()
		return true
	})
	if n != 1 || (c.Scheme != SchemeHMAC && c.Scheme != SchemeBearer) {
		return PushConfig{}, fmt.Errorf("push_notification_config/authentication/schemes: want one of %q or %q", SchemeHMAC, SchemeBearer)
	}
	if err := optionalString(auth, "credentials", &c.Credentials); err != nil || c.Credentials == "" {
		return PushConfig{}, fmt.Errorf("push_notification_config/authentication/credentials: want a non-empty string")
	}
	return c, nil
}
