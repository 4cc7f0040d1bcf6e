#!/bin/sh
# run.sh is make chaos: generate the 3.0.26 bindings of examples/seller and
# of this program (through their tool directives, from a mirror holding the
# published bundles, checked against each adcp.lock), build the seller once,
# and run the program against it. Arguments go to the program (go run .
# -help lists them). It exits as the program does: 1 when a count is not 0.
#
#   ADCP_SPEC_DIR  the published spec material; default ../../../shared/adcp.
set -eu

fail() {
	echo "run.sh: FAILED: $*" >&2
	exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
spec_dir=${ADCP_SPEC_DIR:-$root/../shared/adcp}
[ -f "$spec_dir/protocol/3.0.26.tgz" ] || fail "no published bundle at $spec_dir/protocol/3.0.26.tgz (set ADCP_SPEC_DIR)"
ADCP_MIRROR=$(cd "$spec_dir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ADCP_CACHE=$tmp/cache
ADCP_SPEC_DIR=$ADCP_MIRROR # examples/seller generates its later releases from $ADCP_SPEC_DIR/schemas
export ADCP_MIRROR ADCP_CACHE ADCP_SPEC_DIR

echo "run.sh: examples/seller: go generate, go build"
cd "$root/examples/seller"
rm -rf adcp adcp31 adcp32 specdata
go generate ./... >"$tmp/gen.txt" || fail "go generate in examples/seller: $(cat "$tmp/gen.txt")"
go build -o "$tmp/seller" . || fail "go build examples/seller"

echo "run.sh: internal/chaos: go generate, go vet, go build"
cd "$here"
rm -rf adcp
go generate ./... >"$tmp/gen.txt" || fail "go generate in internal/chaos: $(cat "$tmp/gen.txt")"
go mod tidy -diff || fail "internal/chaos/go.mod or go.sum is stale: run 'go mod tidy' in internal/chaos and commit the result"
go vet ./... || fail "go vet"
go build -o "$tmp/chaos" . || fail "go build internal/chaos"

echo "run.sh: chaos -seller (examples/seller)"
"$tmp/chaos" -seller "$tmp/seller" "$@"
