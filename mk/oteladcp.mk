.PHONY: test-oteladcp

OTELADCP_DIR := runtime/oteladcp
OTELENV_DIR  := runtime/oteladcp/otelenv

# test-oteladcp: the OpenTelemetry Observer, its own module (the adcpgen
# module depends on no telemetry library): tidy check, vet, staticcheck, and
# its tests under the race detector: a typed buyer calling a seller on
# loopback over MCP and A2A on every release of the published spec, one
# trace across both, the attributes and metric points, no secret in any of
# them, and docs/telemetry.md's table against what they emit; and
# otelenv, a module of its own again (the SDK and the exporters), which
# sets the providers from the OTEL_* environment. make test runs it.
test-oteladcp:
	cd $(OTELADCP_DIR) && $(GO) mod tidy -diff && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -race -count=1 ./...
	cd $(OTELENV_DIR) && $(GO) mod tidy -diff && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./... && $(GO) test -race -count=1 ./...
