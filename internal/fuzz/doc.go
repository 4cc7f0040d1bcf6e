// Package fuzz holds the generator of the fuzz targets for large generated
// types. The types come from the published spec, so neither they nor the
// targets are committed: "make fuzz-corpus" runs ./internal/fuzz/fuzzgen,
// which writes to internal/fuzz/gen/ (gitignored, behind the adcpgen_fuzz
// build tag):
//
//   - adcp/: the package generated from the 3.1.19 schemas;
//   - fuzz_test.go: one target per large type (get_products response,
//     create_media_buy and sync_creatives requests, capabilities and
//     creative-format responses), each decoding in strict and exact mode
//     and checking that exact mode accepts a subset of strict mode with the
//     same values, that what decodes is strict JSON and re-encodes to bytes
//     that decode equal, and that every failure is a *wire.DecodeError;
//   - testdata/fuzz/<target>/: the seed corpus, from internal/synth's
//     minimal and maximal instances of the schema (every union arm), their
//     mutations, and the bench fixture for get_products.
//
// Then, for example:
//
//	go test -tags adcpgen_fuzz ./internal/fuzz/gen                      # the seeds as tests
//	go test -tags adcpgen_fuzz -run '^$' -fuzz FuzzGetProductsResponse -fuzzminimizetime 5s ./internal/fuzz/gen
//
// or "make fuzz-generated" to fuzz every target for $(FUZZTIME). (Keep
// -fuzzminimizetime short: minimising an input grown from the 35 KB fixture
// seed otherwise stalls the workers for a minute.) The
// strict reader itself is fuzzed in runtime/wire (FuzzUnmarshal, FuzzValid,
// FuzzProbe, FuzzUnmarshalExact), with no generated code.
package fuzz
