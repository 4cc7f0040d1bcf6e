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
//
// A success is sent only once it is durable. The claim has a lease
// (Options.Lease, 10 s) that the layer renews while the handler runs, so a
// key whose replica died is taken over seconds later, and a call that
// meets a key in flight is told the truth: retry_after is the time left on
// the holder's lease. The handler runs in the store's unit of work
// (sellerstore.Atomic) and the record completes in it: with pgstore, what
// the handler booked through pgstore's InTx, the task it started and the
// answer commit in one transaction, fenced by the claim's token. When the
// store is away the layer keeps trying for Options.CompleteWait, then
// answers SERVICE_UNAVAILABLE with the store's retry_after; a retry with
// the same key replays the answer or, when nothing of the first call was
// kept, runs the handler again.
package idempotency
