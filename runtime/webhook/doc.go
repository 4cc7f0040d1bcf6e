// Package webhook is both ends of AdCP push notifications.
//
// Signatures: AdCP's legacy HMAC-SHA256 scheme (HMAC): HMAC-SHA256 keyed
// with the shared secret's bytes, over "<timestamp>.<raw body>", sent as
// "sha256=<hex>" in X-ADCP-Signature with the Unix timestamp in
// X-ADCP-Timestamp, checked in constant time within a 300-second window.
// AdCP 3.0 deprecates the scheme in favour of the RFC 9421 webhook profile
// and removes it in 4.0; a buyer selects it by setting
// push_notification_config.authentication.
//
// Buyer side: Receiver is an http.Handler for the seller's posts (MCP
// webhook payloads and A2A pushes). It verifies the signature, refuses a
// replayed one, caps the body, resolves the payload's type through the
// spec version's task_result_resolution (task type from the URL route, else
// the payload's task_type), decodes it strictly and hands it to a handler;
// On registers a typed one for a generated tool descriptor.
//
// Seller side: Sender posts a payload (MCPPayload) to the URL of a
// request's push_notification_config (ParsePushConfig), signed as the buyer
// asked, retried with backoff on 5xx and timeouts, within attempt and time
// bounds, and never to a loopback, private or link-local address.
package webhook
