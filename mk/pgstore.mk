.PHONY: test-pgstore

PGSTORE_DIR := runtime/sellerstore/pgstore

# test-pgstore: the PostgreSQL store, its own module (the adcpgen module has
# no database driver): tidy check, vet, and the sellerstore conformance suite
# with the race detector against a real server. The tests use the DSN in
# $$ADCPGEN_TEST_PG, else start a throwaway cluster when initdb and pg_ctl
# are installed (on PATH or Debian's /usr/lib/postgresql/*/bin), else skip;
# ADCP_REQUIRE_PG=1 turns the skip into a failure. .ci/postgres.sh installs
# PostgreSQL first when it is missing.
test-pgstore:
	cd $(PGSTORE_DIR) && $(GO) mod tidy -diff && $(GO) vet ./... && $(GO) test -race -count=1 ./...
