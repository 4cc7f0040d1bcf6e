// Package bench measures the strict generated decoders against the
// alternatives, side by side in one "go test -bench" run, on the 35.7 KB
// get_products fixture (../shared/bench/get-products-response-3.0.26.json):
// json.Valid, encoding/json into the same 3.0.26 structs without their
// methods, wire.Unmarshal into the generated 3.0.26 types (strict and
// exact), go-jsonschema's generated decoder, and validation with a compiled
// runtime/validate schema; and one get_products call against go-sdk's MCP
// server on loopback, typed and strict (runtime/buyer) beside go-sdk's
// CallTool decoding into maps (BenchmarkCall, and BenchmarkCallClientSide
// for the client's own share); and the seller's cost per get_products call
// answering the fixture over go-sdk's mcp.Server (seller_bench_test.go),
// beside go-sdk's own typed mcp.AddTool on the same structs without methods;
// and create_media_buy at 32 concurrent buyers over MCP on loopback HTTP,
// each call a fresh idempotency key, on the memory store and on PostgreSQL
// (pgstore, a throwaway cluster from internal/pgtest or $ADCPGEN_TEST_PG)
// with pgx's default pool and with 16 connections: calls/s and p99
// (store_bench_test.go; ratios prints PostgreSQL's share of memory's);
// and what telemetry (runtime/oteladcp) costs a call, with no provider and
// with the SDK recording, as ratios of the uninstrumented call's CPU time
// in the same rounds (telemetry_bench_test.go).
// The seller under load, adcpgen beside bare go-sdk and a2a-go servers in
// processes of their own, is ./load (make bench-load, see README.md).
//
// This directory is a module of its own (replacing adcpgen with ../..), so
// go-jsonschema and its dependencies never enter adcpgen's go.mod, nor the
// module graph of a project that requires adcpgen.
//
// The code measured is generated from the published spec, so it is never
// committed: "make bench" runs ./benchgen here, which writes it to gen/
// (gitignored, every file behind the adcpgen_bench build tag so the module
// builds without it), then runs, in this directory,
//
//	go test -tags adcpgen_bench -run '^$' -bench . -benchmem .
//
// and prints the ratios with ./ratios. After adcpgen's go.mod changes, run
// "make bench-gen" and then "go mod tidy" here (tidy needs gen/ to see
// what the benchmarks import).
package bench
