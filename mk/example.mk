.PHONY: example example-seller example-buyer example-versions example-replicas

# example: the example modules end to end. examples/downstream generates the
# 3.0.26 bindings through `go tool adcpgen` from the published bundles
# ($$ADCP_SPEC_DIR, else $(SPEC_DIR)), checks the lock, vets, runs and
# compares the output; examples/seller (example-seller) also runs its tests
# against go-sdk's and a2a-go's clients and starts the built seller.
example: example-seller
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./examples/downstream/run.sh

example-seller:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./examples/seller/run.sh

# example-buyer: the buyer module (examples/buyer) against the test seller
# (examples/seller): generate its 3.0.26 bindings, vet, build, start the
# seller on a free loopback port, run the buyer over MCP and A2A (tools,
# get_products, create_media_buy with an automatic idempotency key,
# followed to completion), check what it prints, stop the seller.
# SELLER_URL (and SELLER_API_KEY) run it against a seller already running.
example-buyer:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./examples/buyer/run.sh

# example-versions: examples/versioned, the seller built for a version
# published only as a schema tree, on 3.1.19 and 3.2.0-beta.5: generate
# from the tree and embed it, vet, build, then two replicas on one
# PostgreSQL database ($$ADCPGEN_TEST_PG, else a throwaway cluster: needs
# initdb and pg_ctl, which .ci/postgres.sh installs) driven by the typed
# buyer and by adcpgen call --validate --wait, async included.
EXAMPLE_VERSIONS ?= 3.1.19 3.2.0-beta.5
example-versions:
	@for v in $(EXAMPLE_VERSIONS); do \
	  ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./examples/versioned/run.sh $$v || exit 1; \
	done

# example-replicas: every example seller as two replicas on one PostgreSQL
# database: examples/seller (3.0.26, after example-seller built it) with
# adcpgen call across the replicas, then example-versions.
example-replicas: example-versions
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./examples/seller/replicas.sh
