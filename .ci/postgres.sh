#!/usr/bin/env bash
# Tests the PostgreSQL store (runtime/sellerstore/pgstore) against a real
# server, installing PostgreSQL from Debian's packages when its server
# binaries are missing. The tests start and remove their own throwaway
# cluster (as the postgres user when run as root), or use $ADCPGEN_TEST_PG.
set -euo pipefail
cd "$(dirname "$0")/.."

have_pg() {
  command -v initdb >/dev/null && command -v pg_ctl >/dev/null && return 0
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null
}

if [ -z "${ADCPGEN_TEST_PG:-}" ] && ! have_pg; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo ".ci/postgres.sh: PostgreSQL is not installed and this is not root on Debian: install it, or set ADCPGEN_TEST_PG to a DSN" >&2
    exit 1
  fi
  echo "installing PostgreSQL from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi

ADCP_REQUIRE_PG=1 make test-pgstore
