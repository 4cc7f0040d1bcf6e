#!/bin/sh
# run.sh VERSION builds the versioned seller for a spec version published as
# a schema tree (3.1.19, 3.2.0-beta.5) and runs it the way a seller runs it
# in production, two replicas on one PostgreSQL database, driven end to end:
# generate the bindings from the tree and embed the tree (go generate, via
# the tool directive), check go.mod is tidy, vet, build; start PostgreSQL
# ($ADCPGEN_TEST_PG, else a throwaway cluster: ../pg.sh), then replicas a and b
# (b does not purge: one purger per database); run the typed buyer (drive:
# over MCP and A2A, an async buy submitted to a, replayed on b, finished on
# b); then adcpgen call --validate --wait, an async buy over MCP to a and
# over A2A to b, each followed to completion with every payload checked
# against the version's schemas. It stops at the first failing step with a
# message saying which, and stops what it started.
#
#   ADCP_SPEC_DIR  the published spec material (schemas/VERSION); default
#                  ../../../shared/adcp from this directory.
set -eu

fail() {
	echo "run.sh: FAILED: $*" >&2
	exit 1
}

version=${1:?usage: run.sh VERSION}
here=$(cd "$(dirname "$0")" && pwd)
spec_dir=${ADCP_SPEC_DIR:-$here/../../../shared/adcp}
[ -d "$spec_dir/schemas/$version" ] || fail "no schema tree at $spec_dir/schemas/$version (set ADCP_SPEC_DIR)"
ADCP_TREE=$(cd "$spec_dir/schemas/$version" && pwd)
export ADCP_TREE
tmp=$(mktemp -d)
pgdir=
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	[ -n "$pgdir" ] && "$here/../pg.sh" stop "$pgdir"
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
cd "$here"

echo "run.sh $version: go generate (adcpgen generate --spec $ADCP_TREE via go tool; the tree copied into specdata/)"
rm -rf adcp specdata bin
go generate ./... >"$tmp/gen.txt" 2>&1 || fail "go generate: $(cat "$tmp/gen.txt")"
grep -q "SpecVersion = \"$version\"" adcp/*.go || fail "go generate wrote no package of $version into adcp/"

echo "run.sh $version: go.mod and go.sum are tidy"
go mod tidy -diff || fail "examples/versioned/go.mod or go.sum is stale: run 'go mod tidy' there and commit the result"

echo "run.sh $version: go vet, go build"
go vet ./... || fail "go vet"
go build -o bin/seller . || fail "go build"
go build -o bin/drive ./drive || fail "go build ./drive"

dsn=${ADCPGEN_TEST_PG:-}
if [ -z "$dsn" ]; then
	pgdir=$(mktemp -u /tmp/adcpgen-pg-XXXXXX)
	echo "run.sh $version: start PostgreSQL (../pg.sh start $pgdir)"
	dsn=$("$here/../pg.sh" start "$pgdir") || { pgdir=; fail "PostgreSQL did not start"; }
fi

key=key-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
start() { # start NAME [FLAG...]: a replica on a free loopback port; sets base_NAME
	name=$1
	shift
	: >"$tmp/$name.out"
	./bin/seller -addr 127.0.0.1:0 -api-key "$key" -postgres "$dsn" -replica "$name" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pids="$pids $!"
	i=0
	while [ "$(wc -l <"$tmp/$name.out")" -lt 2 ]; do
		i=$((i + 1))
		[ $i -le 150 ] || fail "replica $name printed no address within 15s: $(cat "$tmp/$name.err")"
		sleep 0.1
	done
	eval "base_$name=\$(sed -n '1s/^listening //p' \"\$tmp/\$name.out\")"
}
echo "run.sh $version: start replicas a and b on one database"
start a
start b -purge=false
echo "run.sh $version: a at $base_a, b at $base_b"

echo "run.sh $version: the typed buyer (drive) against both replicas"
./bin/drive -a "$base_a" -b "$base_b" -key "$key" || fail "drive (replica logs: $(cat "$tmp/a.err" "$tmp/b.err"))"

buy='{"account":{"account_id":"acct_example"},"brand":{"domain":"coffee.example"},"po_number":"async-cli","start_time":"2027-01-04T00:00:00Z","end_time":"2027-01-31T23:59:59Z","packages":[{"product_id":"ctv_premium","pricing_option_id":"cpm_usd_fixed","budget":5000}]}'
call() { # call TRANSPORT AGENT: an async create_media_buy followed to its end
	echo "$buy" | go tool adcpgen call --transport "$1" --agent "$2" --spec "$ADCP_TREE" --tool create_media_buy --request - \
		--header "Authorization=Bearer $key" --validate --wait --poll-interval 100ms >"$tmp/call.json" 2>"$tmp/call.err" ||
		fail "adcpgen call --transport $1 $2: $(cat "$tmp/call.err" "$tmp/call.json")"
	grep -q '"status": "completed"' "$tmp/call.json" || fail "adcpgen call --transport $1: not completed: $(cat "$tmp/call.json")"
	grep -q '"issues": \[\]' "$tmp/call.json" || fail "adcpgen call --transport $1: schema issues: $(cat "$tmp/call.json")"
	grep -q 'submitted' "$tmp/call.err" || fail "adcpgen call --transport $1: the buy did not go async: $(cat "$tmp/call.err")"
}
echo "run.sh $version: adcpgen call --validate --wait, MCP to a, A2A to b"
call mcp "$base_a/mcp"
call a2a "$base_b"
echo "run.sh $version: ok"
