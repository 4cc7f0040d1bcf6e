.PHONY: example

# example: the downstream module (examples/downstream) end to end: generate
# the 3.0.26 bindings through `go tool adcpgen` from the published bundles
# ($$ADCP_SPEC_DIR, else $(SPEC_DIR)), check the lock, vet, run and compare
# the output.
example:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./examples/downstream/run.sh
