.PHONY: chaos

# chaos: examples/seller under the faults of issue 27, counted
# (internal/chaos): a throwaway PostgreSQL restarted and stopped for 15 s
# under load, kill -9 of a replica during async creates and during webhook
# retries, one task polled on both replicas at once, the webhook receiver
# down 60 s, slow bodies, unsigned batches; two replicas, buyers over MCP
# and A2A, all on loopback. It fails on any duplicate buy, orphaned task,
# lost notification, key stuck past its lease, executed batch or slow
# connection held. Needs initdb and pg_ctl (.ci/postgres.sh installs
# them). CHAOS_FLAGS go to the program.
chaos:
	ADCP_SPEC_DIR="$${ADCP_SPEC_DIR:-$(abspath $(SPEC_DIR))}" ./internal/chaos/run.sh $(CHAOS_FLAGS)
