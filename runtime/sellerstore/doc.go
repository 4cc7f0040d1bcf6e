// Package sellerstore is the storage layer of an AdCP seller: idempotency
// records and async tasks, behind one small byte-oriented interface (Store)
// that several server replicas can share.
//
// The store never decodes AdCP payloads. The seller framework encodes a
// response once and stores its bytes; a replay returns exactly those bytes,
// with the status and task id they carried.
//
// # Idempotency
//
// AdCP tools whose idempotency_requirement is required carry an
// idempotency_key. Records are keyed by (principal, tool, key): the
// authenticated principal scopes them, so one buyer can never replay or probe
// another's. Claim is one atomic step that answers with one Outcome:
//
//   - Claimed: the caller owns the key and runs the handler, then calls
//     Complete with the encoded response, or Release after a transient
//     failure so the key may be retried.
//   - Replay: the key completed with the same fingerprint; the stored
//     response is returned byte for byte.
//   - Conflict: the key was used with a different fingerprint
//     (IDEMPOTENCY_CONFLICT).
//   - InFlight: another claim holds the key and its lease is live
//     (IDEMPOTENCY_IN_FLIGHT). A claim whose lease ran out, because its
//     replica crashed, is taken over by the next Claim with the same
//     fingerprint; the old owner's token then no longer completes it.
//   - Expired: the key completed but its replay window (ClaimRequest.Retention,
//     counted from completion) has passed (IDEMPOTENCY_EXPIRED). Expired
//     records are reported until Purge removes them; after that the key is
//     unknown again. Durable stores never purge on their own: a
//     long-running seller runs PurgePeriodically (Memory also drops them
//     itself, an hour after their window).
//
// The fingerprint is the caller's hash of the canonical request; Canonical
// and Fingerprint compute one.
//
// # Tasks
//
// A task is created for a response with status submitted (or any status the
// framework wants to keep pollable), with the request that started it (so
// any replica can take the task over), read and updated by (principal, id). A
// task of another principal is indistinguishable from a missing one: both
// give the same error value and message, wrapping ErrNotFound. completed,
// failed, canceled and rejected are final (AdCP task-status); interim states
// may follow each other in any order.
//
// # Units of work
//
// An Atomic store (Memory and pgstore are) makes several writes one unit of
// work: Begin puts a unit in a context, the store's operations with that
// context join it, and Commit keeps them all or none (pgstore: one
// transaction; Memory writes at once and cannot roll back). The
// idempotency layer runs each call in a unit and completes the record in
// it, so a call's answer, the task it started and the seller's own writes
// (pgstore's InTx) are durable together; a claim whose lease lapsed and was
// taken over fences its old owner out (Complete with the old token is
// ErrClaimLost), rolling its work back. AfterCommit runs a function once
// the unit commits (a webhook to post once its task's update is durable).
//
// # Outages
//
// A store that cannot be reached (a database restarting) returns an
// *OutageError: callers answer a transient SERVICE_UNAVAILABLE with
// the store's RetryAfter, which grows with the outage, so buyers retry at
// a pace the store can take.
//
// # Time
//
// Stores read time from an injected Clock, never from a global, and keep it
// at microsecond precision in UTC (Timestamp), the precision PostgreSQL
// stores. Replicas sharing a database should run synchronised clocks; leases
// should be much longer than the skew between them.
//
// # Implementations
//
// NewMemory is the in-memory default, for one process. It is bounded
// (DefaultMaxRecords idempotency records, DefaultMaxTasks tasks;
// SetCapacity changes them) and drops on its own what is past its use: a
// completed record an hour after its replay window (answering Expired in
// that hour), an abandoned claim an hour after its lease, an ended task a
// day after it ended, a settled webhook an hour after. When every record
// is in use a new key is refused with ErrFull, which the idempotency layer
// answers RATE_LIMITED. The storetest package
// is the conformance suite every Store must pass; the pgstore module (its own
// Go module, so this one needs no database driver) stores in PostgreSQL.
package sellerstore
