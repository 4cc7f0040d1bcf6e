// Package webhook is both ends of AdCP push notifications.
//
// Signatures. Since AdCP 3.0 a webhook is signed with the RFC 9421 webhook
// profile (tag adcp/webhook-signing/v1, content-digest always covered;
// runtime/signing) under the seller's published key, unless the buyer's
// push_notification_config carries an authentication block, which selects
// the legacy scheme instead: HMAC-SHA256 keyed with the shared secret's
// bytes, over "<timestamp>.<raw body>", sent as "sha256=<hex>" in
// X-ADCP-Signature with the Unix timestamp in X-ADCP-Timestamp, checked in
// constant time within a 300-second window (or a Bearer token). The
// registration picks one scheme; a post signed the other way is refused
// with webhook_mode_mismatch (security.mdx "Mode selection is a switch,
// not both"). AdCP removes the legacy scheme in 4.0.
//
// Buyer side: Receiver is an http.Handler for the seller's posts (MCP
// webhook payloads and A2A pushes). It verifies the signature (the
// webhook verifier checklist with the seller's keys, discovered from its
// URL or configured, or the HMAC secret), refuses a replayed one, caps the
// body, resolves the payload's type through the spec version's
// task_result_resolution (task type from the URL route, else the
// payload's task_type), decodes it strictly and hands it to a handler
// once: a redelivery with the same idempotency_key and payload is
// acknowledged (200) without it, one that arrives while the first is being
// handled is told to retry (503), the key reused for another payload is a
// 409 (async-identity-and-convergence.mdx). The keys live in a DedupStore
// for at least 24 hours, shared by every receiver of the buyer
// (sellerstore/pgstore's Dedup; in memory by default, for tests). On
// registers a typed handler for a generated tool descriptor.
//
// Seller side: Sender posts a payload (MCPPayload) to the URL of a
// request's push_notification_config (ParsePushConfig), signed as the
// buyer asked (RFC 9421 with SenderOptions.Signer by default), every
// attempt signed afresh with the same body and idempotency_key, and never
// to a loopback, private or link-local address. Send retries within
// attempt and time bounds; a durable outbox (sellertask's) makes one
// Attempt at a time and schedules the next with NextAttempt, for up to
// SenderOptions.Horizon.
package webhook
