GO       ?= go
BIN      := bin/adcpgen
SPEC_DIR ?= ../shared/adcp

.PHONY: run build test test-race lint js-deps vet generate check-generate fmt-check fuzz-smoke

# Targets kept in their own files (bench, example, ...).
-include mk/*.mk

# run: the main job. Downloads modules, builds adcpgen, generates Go from
# the embedded core schemas (or SPEC: a version, a bundle, a schema tree)
# into out/adcp, and prints what it generated and what to try next. out/ is
# git-ignored and a module of its own (out/go.mod), so ./... never builds a
# stale copy; a second run rewrites only what changed.
SPEC ?=
run: build
	@mkdir -p out && { [ -f out/go.mod ] || printf 'module adcpgen.local/out\n\ngo 1.26\n' > out/go.mod; }
	@./$(BIN) generate $(if $(SPEC),--spec $(SPEC)) --out out/adcp --package adcp
	@$(GO) run ./internal/runsummary out/adcp

build:
	$(GO) mod download
	$(GO) build -o $(BIN) ./cmd/adcpgen

# test: every package's tests, the nested bench and oteladcp modules' included. Tests
# that need the published spec read it from $$ADCP_SPEC_DIR or
# ../shared/adcp and skip, saying so, without it. The corpus and round-trip
# tests build every spec version, hence the long timeout.
test: test-bench test-oteladcp js-deps
	$(GO) test -timeout 45m ./...

# js-deps: install the JavaScript SDK the interoperability tests drive
# (internal/jsinterop), so that no test reaches the npm registry; without
# node it says so and the tests skip.
js-deps:
	$(GO) run ./internal/jsinterop/setup

vet:
	$(GO) vet ./...

# test-race: the main module's tests under the race detector, in short mode:
# the packages that run goroutines (the transports, the task manager, the
# webhook sender, the stores) run all their tests; -short trims the
# whole-corpus tests, which start no goroutines and which the race detector
# would make several times slower. CI runs it.
test-race:
	$(GO) test -race -short -timeout 45m ./...

# lint: staticcheck over the main module, at a pinned version run from the
# module proxy, so the module's own requirements stay as they are. CI runs it.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	$(GO) run $(STATICCHECK) ./...

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
