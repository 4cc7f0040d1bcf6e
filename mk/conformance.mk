.PHONY: conformance

# conformance: the official AdCP compliance runner against a seller, over
# MCP and A2A: per transport the full assessment (no storyboard named: the
# agent's capabilities decide), the storyboards issue 12 named and the
# signing ones (signed_requests, webhook_emission: on the real clock), the
# governance storyboards routed to a governance agent on loopback TLS,
# and `adcp fuzz` with a fixed seed; then `adcp grade request-signing`. The runner is the @adcp/sdk that
# internal/jsinterop pins (installed into its git-ignored node_modules on
# first use; it runs offline from the package's storyboard cache, its
# clock started before the storyboards' fixed dates). Prints
# passed/failed/skipped/known steps per run, the failed steps, the skipped
# ones by storyboard and reason, and the fuzzer's findings; exits 1 on any
# failed step but the known failures (internal/conformance/known.go) or any
# fuzz finding. The seller is examples/seller with -sandbox on a loopback
# port, a fresh one per run (its bindings generated from the published
# bundles in $$ADCP_SPEC_DIR), or a running one:
# CONFORMANCE_AGENT=http://HOST:PORT (MCP at /mcp, A2A at /a2a) with
# CONFORMANCE_AUTH=KEY. CONFORMANCE_FLAGS passes more flags (-seller js:
# the JavaScript SDK's own seller; -full=false, -governance=false,
# -fuzz=false, -grade=false: leave a part out; -v: skip reasons of every
# run). What the storyboards need from a seller:
# internal/conformance/README.md.
conformance:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" $(GO) run ./internal/conformance $(CONFORMANCE_FLAGS)
