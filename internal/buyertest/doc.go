// Package buyertest holds a small AdCP-shaped schema tree of this
// project's own (testdata/schemas, version 0.1.0-buyertest) and the
// package adcpgen generates from it (tinyadcp), so the typed client's tests
// call real generated descriptors without generating a published version
// at test time: get_things (no interim payloads), create_thing (mutating,
// idempotency key required, submitted/working/input-required payloads),
// delete_thing (mutating without a key), lock_thing (a request closed to
// undeclared members), get_task_status, and the tasks/get schemas of
// versions before it.
//
// TestGenerated keeps tinyadcp equal to a fresh run; after a generator
// change, refresh it with
//
//	go test ./internal/buyertest -run TestGenerated -update
package buyertest
