// Package webhook signs and verifies AdCP's legacy HMAC-SHA256 webhook
// signatures: HMAC-SHA256 keyed with the shared secret's bytes, over
// "<timestamp>.<raw body>", sent as "sha256=<hex>", checked in constant
// time within a 300-second window. AdCP 3.0 deprecates the scheme in
// favour of the RFC 9421 webhook profile and removes it in 4.0; a buyer
// selects it by setting push_notification_config.authentication.credentials.
// Extract a verified payload with extract.Extractor.Webhook.
package webhook
