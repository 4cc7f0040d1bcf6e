#!/bin/sh
# run.sh runs the downstream example end to end, the way CI does: generate
# the 3.0.26 bindings through the tool directive (from a mirror holding the
# published bundles, into a throwaway cache, checked against adcp.lock),
# vet, run, and compare the program's output with what it must print. It
# stops at the first failing step with a message saying which.
#
#   ADCP_SPEC_DIR  the published spec material (protocol/<version>.tgz and
#                  .sha256); default ../../../shared/adcp from this directory.
#
# Nothing outside this directory and a temporary cache is written; adcp/
# (the generated package) is rebuilt from scratch and is gitignored.
set -eu

fail() {
	echo "run.sh: FAILED: $*" >&2
	exit 1
}

here=$(cd "$(dirname "$0")" && pwd)
spec_dir=${ADCP_SPEC_DIR:-$here/../../../shared/adcp}
[ -f "$spec_dir/protocol/3.0.26.tgz" ] || fail "no published bundle at $spec_dir/protocol/3.0.26.tgz (set ADCP_SPEC_DIR)"
ADCP_MIRROR=$(cd "$spec_dir" && pwd)
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT INT TERM
ADCP_CACHE=$cache
export ADCP_MIRROR ADCP_CACHE
cd "$here"

echo "run.sh: go generate (adcpgen generate --spec 3.0.26 via go tool, mirror $ADCP_MIRROR)"
rm -rf adcp
go generate ./... || fail "go generate"
[ -f adcp/doc.go ] || fail "go generate wrote no adcp/doc.go"

echo "run.sh: a bundle that does not match adcp.lock is refused"
sed 's/"sha256": "[0-9a-f]*"/"sha256": "0000000000000000000000000000000000000000000000000000000000000000"/' adcp.lock >"$cache/bad.lock"
if go tool adcpgen generate --spec 3.0.26 --out "$cache/out" --package adcp --lock "$cache/bad.lock" 2>"$cache/err"; then
	fail "generate accepted a bundle whose checksum differs from the lock"
fi
grep -q "spec 3.0.26 is locked to sha256 0000" "$cache/err" || fail "not refused for the lock mismatch: $(cat "$cache/err")"

echo "run.sh: go.mod and go.sum are tidy (adcpgen's dependencies may have changed)"
go mod tidy -diff || fail "examples/downstream/go.mod or go.sum is stale: run 'go mod tidy' in examples/downstream and commit the result"

echo "run.sh: go vet"
go vet ./... || fail "go vet"

echo "run.sh: go run ."
go run . >"$cache/out.txt" || fail "go run . exited with status $?"
cat "$cache/out.txt"
cat >"$cache/want.txt" <<'WANT'
AdCP 3.0.26
product ctv_premium: Premium CTV, guaranteed, USD 42.50 CPM
RATE_LIMITED (transient): action retry after 30s
details: 0 requests left in a 60s window per account
WANT
diff -u "$cache/want.txt" "$cache/out.txt" || fail "the program's output differs from the expected (diff above)"
echo "run.sh: ok"
