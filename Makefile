GO      ?= go
BIN     := bin/adcpgen

.PHONY: run build test vet check-generate generate bench fuzz-smoke

# run: the main job. Builds adcpgen and generates from the embedded default
# schemas into a temporary directory, printing a one-line summary.
run: build
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && ./$(BIN) generate --out "$$tmp/adcp" --package adcp

build:
	$(GO) mod download
	$(GO) build -o $(BIN) ./cmd/adcpgen

test:
	$(GO) test ./...

vet:
	$(GO) vet ./...
