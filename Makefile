GO       ?= go
BIN      := bin/adcpgen
SPEC_DIR ?= ../shared/adcp

.PHONY: run build test js-deps vet generate check-generate fmt-check fuzz-smoke

# Targets kept in their own files (bench, example, ...).
-include mk/*.mk

# run: the main job. Downloads modules, builds adcpgen and generates Go from
# the embedded core schemas into a temporary directory (one summary line).
run: build
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && ./$(BIN) generate --out "$$tmp/adcp" --package adcp

build:
	$(GO) mod download
	$(GO) build -o $(BIN) ./cmd/adcpgen

# test: every package's tests, the nested bench module's included. Tests
# that need the published spec read it from $$ADCP_SPEC_DIR or
# ../shared/adcp and skip, saying so, without it. The corpus and round-trip
# tests build every spec version, hence the long timeout.
test: test-bench js-deps
	$(GO) test -timeout 45m ./...

# js-deps: install the JavaScript SDK the interoperability tests drive
# (internal/jsinterop), so that no test reaches the npm registry; without
# node it says so and the tests skip.
js-deps:
	$(GO) run ./internal/jsinterop/setup

vet:
	$(GO) vet ./...

# generate: rebuild the committed package generated/adcp from schemas/.
generate:
	$(GO) run ./cmd/adcpgen generate --out generated/adcp --package adcp

# check-generate: fail when generated/adcp differs from a fresh run.
check-generate:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(GO) run ./cmd/adcpgen generate --out "$$tmp/adcp" --package adcp >/dev/null && \
	diff -r generated/adcp "$$tmp/adcp" && echo "check-generate: generated/adcp is up to date"

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# fuzz-smoke: every fuzz target for a few seconds each.
fuzz-smoke:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$${FUZZTIME:-5s} $$pkg >/dev/null; \
	  done; done
