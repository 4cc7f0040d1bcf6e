# Benchmarks and fuzzing of the generated decoders (issue 4). Code generated
# from the published spec is never committed: these targets write it to
# gitignored directories, behind build tags, and use it there.
#
# internal/bench is its own module (with a replace of adcpgen to ../..), so
# go-jsonschema, the tool it runs, and what that pulls in (cobra, yaml,
# mapstructure, ...) stay out of adcpgen's go.mod and out of the module
# graph of every project that requires adcpgen. Its targets run inside it.

BENCH_DIR   := internal/bench

BENCH_COUNT ?= 5
# TELEMETRY_ROUNDS: rounds of BenchmarkTelemetry per run (each a block of
# calls of every setup).
TELEMETRY_ROUNDS ?= 20
BENCH_OUT   ?= bench.out
FUZZTIME    ?= 30s

.PHONY: bench bench-gen bench-load test-bench fuzz-corpus fuzz-generated

# bench-gen: generate the 3.0.26 types, the same structs without methods and
# go-jsonschema's decoder into internal/bench/gen (tag adcpgen_bench).
bench-gen:
	cd $(BENCH_DIR) && $(GO) run ./benchgen -spec $(abspath $(SPEC_DIR)) -out gen

# bench: json.Valid, encoding/json into the plain structs, wire.Unmarshal,
# go-jsonschema and runtime/validate on the get_products fixture, side by
# side in one go test run, then the ratios the issue sets targets for.
# The seller's create_media_buy at 32 clients on the memory store and on
# PostgreSQL (a throwaway cluster, or $$ADCPGEN_TEST_PG) runs in rounds of
# one run each, so that the load of a shared machine weighs on every store
# alike; it skips without PostgreSQL. BenchmarkTelemetry (what
# runtime/oteladcp costs a call: no provider, the SDK recording, as ratios
# of the uninstrumented call's CPU time in the same rounds) runs in
# TELEMETRY_ROUNDS rounds per run.
bench: bench-gen
	cd $(BENCH_DIR) && ADCP_SPEC_DIR=$(abspath $(SPEC_DIR)) $(GO) test -tags adcpgen_bench -run 'TestDecodersAgree' -bench . -skip 'SellerCreateMediaBuy|Telemetry' -benchmem -count $(BENCH_COUNT) . | tee $(abspath $(BENCH_OUT))
	cd $(BENCH_DIR) && ADCP_SPEC_DIR=$(abspath $(SPEC_DIR)) $(GO) test -tags adcpgen_bench -run '^$$' -bench 'Telemetry' -benchtime $(TELEMETRY_ROUNDS)x -benchmem -count $(BENCH_COUNT) . | tee -a $(abspath $(BENCH_OUT))
	cd $(BENCH_DIR) && for i in $$(seq $(BENCH_COUNT)); do \
	  ADCP_SPEC_DIR=$(abspath $(SPEC_DIR)) $(GO) test -tags adcpgen_bench -run '^$$' -bench 'SellerCreateMediaBuy' -benchtime 2s -count 1 . || exit 1; \
	done | tee -a $(abspath $(BENCH_OUT))
	cd $(BENCH_DIR) && $(GO) run ./ratios < $(abspath $(BENCH_OUT))

# test-bench: the bench module's own tests (benchgen's rewrites, the ratio
# report), which "go test ./..." at the root does not reach; make test runs it.
test-bench:
	cd $(BENCH_DIR) && $(GO) vet ./... && $(GO) test ./...

# fuzz-corpus: generate fuzz targets for large 3.1.19 types and their seed
# corpus (synthesised instances of every union arm, their mutations, the
# bench fixture) into internal/fuzz/gen (tag adcpgen_fuzz); see
# internal/fuzz/doc.go. Seeds alone: go test -tags adcpgen_fuzz ./internal/fuzz/gen
fuzz-corpus:
	$(GO) run ./internal/fuzz/fuzzgen -spec $(SPEC_DIR)

# fuzz-generated: every generated-type target for $(FUZZTIME) each. Minimising
# an input grown from the 35 KB fixture seed takes long, hence the cap.
fuzz-generated: fuzz-corpus
	@set -e; for f in $$($(GO) test -tags adcpgen_fuzz -list '^Fuzz' ./internal/fuzz/gen | grep '^Fuzz'); do \
	  echo "fuzz $$f"; $(GO) test -tags adcpgen_fuzz -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/fuzz/gen; \
	done

# bench-load: the seller under load over loopback HTTP (issue 32): adcpgen's
# seller beside bare go-sdk and a2a-go servers sending the same bytes, MCP
# and A2A, 1.6 KB, 36 KB and 360 KB answers, 32 and 128 concurrent
# clients; calls/s, p50/p99, the server's CPU and allocations per call, the
# ratios issue 32 sets targets for; and the buyers' typed call beside
# go-sdk's CallTool and a2a-go's client. Each server runs in a process of
# its own. LOAD_FLAGS passes flags (-rounds 5, -duration 3s, -profile DIR
# for CPU profiles of the 36 KB cells); see internal/bench/README.md.
LOAD_FLAGS ?=
bench-load: bench-gen
	cd $(BENCH_DIR) && $(GO) run -tags adcpgen_bench ./load -spec $(abspath $(SPEC_DIR)) $(LOAD_FLAGS)
