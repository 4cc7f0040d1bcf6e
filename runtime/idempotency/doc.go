// Package idempotency makes an AdCP seller's mutating tools safe to retry:
// a Layer is seller middleware that claims each call's idempotency_key in
// a sellerstore.IdempotencyStore (scoped by the authenticated principal and
// the tool), runs the handler once, stores its successful answer, and
// replays it for the same key and request; a reused key with another
// request, a key still executing and a key past its replay window get
// IDEMPOTENCY_CONFLICT, IDEMPOTENCY_IN_FLIGHT (or wait-and-replay) and
// IDEMPOTENCY_EXPIRED, or the nearest codes the spec version has.
//
// "The same request" is the same canonical JSON (sellerstore.Canonical)
// without what a buyer may change when it retries: DefaultExclude leaves
// out idempotency_key, context, governance_context and
// push_notification_config.authentication.credentials, as AdCP's exclusion
// list does. A conflict says nothing of the stored request or answer: on
// the wire it is {"code", "message"} only.
//
// ExampleNew puts the layer in front of a seller's handlers
// (seller.Options.Middleware), where a retried create_media_buy is
// replayed; Layer.Capabilities is what to declare under adcp.idempotency
// in get_adcp_capabilities.
//
// Store sellerstore.NewMemory for one process, or pgstore for replicas
// sharing a PostgreSQL database: the claim is one atomic step in the
// store, so the same key sent to two replicas runs the handler once.
package idempotency
