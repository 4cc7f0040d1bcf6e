// Package pgstore is a sellerstore.Store in PostgreSQL, for sellers running
// more than one replica. It lives in its own Go module,
// github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore, so the adcpgen
// module needs no database driver: require it beside adcpgen, at the same
// version (working from a checkout, a replace for each module, the
// module's directory runtime/sellerstore/pgstore).
//
// The package example opens a store and migrates it, once at start-up,
// safe from every replica at once. Give every replica the store (idempotency.New, sellertask's
// Manager), serve MCP stateless, and run sellerstore.PurgePeriodically on
// one replica only.
//
// Claim is one INSERT ... ON CONFLICT DO UPDATE: PostgreSQL's row lock on
// the primary key makes exactly one of any number of concurrent claims,
// from any number of replicas, win a key.
//
// The store is sellerstore.Atomic: a unit of work (Begin; the idempotency
// layer begins one per call) is one transaction, begun at its first
// statement, that the store's task writes and the record's completion
// join. InTx runs the seller's own statements in it (ExampleStore_InTx):
// a media buy booked that way is committed with the answer that names it,
// or not at all, whatever fails between (the database restarting, the
// replica killed, the claim taken over by another replica after its lease
// lapsed: the completion is fenced by the claim's token). A database that
// cannot be reached gives *sellerstore.OutageError, its RetryAfter
// the store's backoff (1 s, doubling with the outage, at most 30 s).
//
// Nonces is the replay store of RFC 9421 request signatures
// (seller.SignedRequests.Replay) in the same database, so a signed request
// replayed to another replica is refused: its insert is one statement
// after the keyid's pg_advisory_xact_lock, so the per-keyid cap is exact
// across replicas too. Purge deletes the pairs that expired. Each signed
// request counts its keyid's live pairs (an index range scan, bounded by
// the cap): on this project's loaded 2-core machine a check costs 25 µs for
// a keyid with none live and 0.76 ms with 9,000, an insert 1-2 ms
// (BenchmarkNonces); a signer sustaining thousands of requests a second
// through one keyid wants a store that keeps a counter instead.
//
// Dedup is the buyer's side in the same database: the delivery keys of
// its webhook receivers (webhook.ReceiverOptions.Dedup), so a redelivered
// event is answered as a duplicate by every receiver, across restarts, for
// the dedup retention; Purge deletes the keys whose retention ended.
//
// Time comes from the injected Clock (the machine's by default), never from
// the database's now(): the store then behaves as sellerstore.Memory does
// under the same clock, and the conformance suite drives leases and replay
// windows without sleeping. Replicas should keep their clocks synchronised
// (NTP); a lease must be much longer than the skew between them.
//
// Its tests run the sellerstore conformance suite (storetest) and the
// replay ledger suite (signing/replay/replaytest) against a real server, and two
// signed seller replicas behind one loopback address: the one $ADCPGEN_TEST_PG names (a role that may CREATE
// DATABASE; the tests use and drop a database of their own), else a
// throwaway cluster they start with initdb and pg_ctl on a unix socket
// (as the postgres user when run as root) and delete. Without either they
// skip, saying why; with ADCP_REQUIRE_PG=1 they fail instead. From the
// repository root: make test-pgstore, or .ci/postgres.sh, which installs
// PostgreSQL from Debian's packages first when it is missing.
package pgstore
