.PHONY: example

# example: the downstream module (examples/downstream) end to end: generate
# the 3.0.26 bindings through `go tool adcpgen` from the published bundles
# ($$ADCP_SPEC_DIR, else $(SPEC_DIR)), check the lock, vet, run and compare
# the output.
example:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./examples/downstream/run.sh

.PHONY: example-buyer

# example-buyer: the buyer module (examples/buyer) against the test seller
# (examples/seller): generate its 3.0.26 bindings, vet, build, start the
# seller on a free loopback port, run the buyer over MCP and A2A (tools,
# get_products, create_media_buy with an automatic idempotency key,
# followed to completion), check what it prints, stop the seller.
# SELLER_URL (and SELLER_API_KEY) run it against a seller already running.
example-buyer:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./examples/buyer/run.sh
