.PHONY: conformance

# conformance: the official AdCP compliance storyboards against a seller,
# over MCP and A2A. The runner is `adcp storyboard run` of the @adcp/sdk
# that internal/jsinterop pins (installed into its git-ignored
# node_modules on first use; it runs offline from the package's storyboard
# cache, its clock started before the storyboards' fixed dates). Prints
# passed/failed/skipped steps per storyboard and exits 1 on any failed
# step. The seller is examples/seller with -sandbox on a loopback port, a
# fresh one per storyboard run (its bindings generated from the published
# bundles in $$ADCP_SPEC_DIR), or a running one:
# CONFORMANCE_AGENT=http://HOST:PORT (MCP at /mcp, A2A at /a2a) with
# CONFORMANCE_AUTH=KEY. CONFORMANCE_FLAGS passes more flags
# (-seller js: the JavaScript SDK's own seller; -v: skip reasons). What
# each storyboard needs from a seller: internal/conformance/README.md.
conformance:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" $(GO) run ./internal/conformance $(CONFORMANCE_FLAGS)
