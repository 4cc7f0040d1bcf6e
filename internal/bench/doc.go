// Package bench measures the strict generated decoders against the
// alternatives, side by side in one "go test -bench" run, on the 35.7 KB
// get_products fixture (../shared/bench/get-products-response-3.0.26.json):
// json.Valid, encoding/json into the same 3.0.26 structs without their
// methods, wire.Unmarshal into the generated 3.0.26 types (strict and
// exact), go-jsonschema's generated decoder, and validation with a compiled
// runtime/validate schema.
//
// The code measured is generated from the published spec, so it is never
// committed: "make bench" runs ./internal/bench/benchgen, which writes it
// to internal/bench/gen/ (gitignored, every file behind the adcpgen_bench
// build tag so the module builds without it), then runs
//
//	go test -tags adcpgen_bench -run '^$' -bench . -benchmem ./internal/bench
//
// and prints the ratios with ./internal/bench/ratios.
package bench
