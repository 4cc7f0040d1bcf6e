.PHONY: conformance

# conformance: the official AdCP compliance runner, the newest the kit in
# $$ADCP_CONFORMANCE_DIR (default: beside the spec, ../shared/conformance) holds (@adcp/sdk
# 14.0.0-beta.7, installed once with npm ci into the git-ignored
# .cache/conformance/runner), against a seller: for each compliance bundle
# of a release the seller serves (its get_adcp_capabilities says which),
# over MCP and A2A, the full assessment, webhook_emission and idempotency
# with the runner contracts the CLI cannot configure, the governance
# storyboards routed to a governance agent on loopback TLS, and `adcp
# fuzz`; then `adcp grade request-signing`. Three runs at a time, each
# against a fresh seller. Prints passed/failed/skipped/known steps per
# bundle, transport and run, the failed steps, the known failures with
# their upstream issues (internal/conformance/known.go), the skipped steps
# by storyboard and reason, and what the fuzzer and the grader found;
# exits 1 on any failed step but the known ones or any fuzz or grader
# finding. The seller is examples/seller with -sandbox on a loopback port
# (its bindings generated from the published bundles in $$ADCP_SPEC_DIR),
# or a running one: CONFORMANCE_AGENT=http://HOST:PORT (MCP at /mcp, A2A at
# /a2a) with CONFORMANCE_AUTH=KEY. CONFORMANCE_FLAGS passes more flags
# (-bundles, -protocols, -storyboards ID,...; -seller js: the JavaScript
# SDK's own seller; -full=false, -contracts=false, -governance=false,
# -fuzz=false, -grade=false: leave a part out; -parallel N; -v). What the
# storyboards need from a seller: internal/conformance/README.md.
# The kit is looked for in CONFORMANCE_DIR or $$ADCP_CONFORMANCE_DIR when
# set, else beside the spec ($$ADCP_SPEC_DIR/../conformance), else in
# ../shared/conformance.
CONFORMANCE_DIR ?=
conformance:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" $(if $(CONFORMANCE_DIR),ADCP_CONFORMANCE_DIR="$(abspath $(CONFORMANCE_DIR))") $(GO) run ./internal/conformance $(CONFORMANCE_FLAGS)
