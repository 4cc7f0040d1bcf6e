#!/bin/sh
# run.sh builds and checks the example seller end to end, the way CI does:
# generate the 3.0.26 bindings and fetch the bundle the seller embeds
# (through the tool directive, from a mirror holding the published bundles,
# checked against adcp.lock), and the 3.1.19 and 3.2.0-beta.5 bindings from
# their schema trees, copied in to be embedded; check go.mod is tidy, vet, run the tests (the
# seller driven by go-sdk's MCP client, a2a-go's client and a webhook
# receiver), build bin/seller, start it on a free loopback port and check
# what it prints and serves. It stops at the first failing step with a
# message saying which.
#
#   ADCP_SPEC_DIR  the published spec material (protocol/<version>.tgz and
#                  .sha256, schemas/<version>/); default ../../../shared/adcp
#                  from this directory.
#
# Nothing outside this directory and a temporary cache is written; adcp/,
# specdata/ and bin/ are rebuilt from scratch and are gitignored.
set -eu

fail() {
	echo "run.sh: FAILED: $*" >&2
	exit 1
}

here=$(cd "$(dirname "$0")" && pwd)
spec_dir=${ADCP_SPEC_DIR:-$here/../../../shared/adcp}
[ -f "$spec_dir/protocol/3.0.26.tgz" ] || fail "no published bundle at $spec_dir/protocol/3.0.26.tgz (set ADCP_SPEC_DIR)"
ADCP_MIRROR=$(cd "$spec_dir" && pwd)
ADCP_SPEC_DIR=$ADCP_MIRROR
export ADCP_SPEC_DIR
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>"$tmp/kill.txt"
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
ADCP_CACHE=$tmp/cache
export ADCP_MIRROR ADCP_CACHE
cd "$here"

echo "run.sh: go generate (adcpgen generate and fetch --spec 3.0.26 via go tool, mirror $ADCP_MIRROR; 3.1.19 and 3.2.0-beta.5 from their trees)"
rm -rf adcp adcp31 adcp32 specdata bin
go generate ./... >"$tmp/gen.txt" || fail "go generate: $(cat "$tmp/gen.txt")"
for p in adcp adcp31 adcp32; do [ -f $p/doc.go ] || fail "go generate wrote no $p/doc.go"; done
ls specdata/3.0.26/*.tgz >"$tmp/ls.txt" 2>&1 || fail "go generate fetched no 3.0.26 bundle into specdata/"
for v in 3.1.19 3.2.0-beta.5; do [ -f specdata/$v/manifest.json ] || fail "go generate copied no $v tree into specdata/"; done

echo "run.sh: go.mod and go.sum are tidy"
go mod tidy -diff || fail "examples/seller/go.mod or go.sum is stale: run 'go mod tidy' in examples/seller and commit the result"

echo "run.sh: go vet"
go vet ./... || fail "go vet"

echo "run.sh: go test (go-sdk MCP client, a2a-go client, the typed client, webhook receiver)"
go test -count=1 ./... || fail "go test"

echo "run.sh: go build -o bin/seller"
go build -o bin/seller . || fail "go build"

echo "run.sh: start bin/seller -addr 127.0.0.1:0"
: >"$tmp/out.txt"
./bin/seller -addr 127.0.0.1:0 >"$tmp/out.txt" 2>"$tmp/err.txt" &
pid=$!
i=0
while [ "$(wc -l <"$tmp/out.txt")" -lt 2 ]; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "bin/seller printed no address and key within 10s: $(cat "$tmp/err.txt")"
	kill -0 "$pid" 2>"$tmp/kill.txt" || fail "bin/seller exited: $(cat "$tmp/err.txt")"
	sleep 0.1
done
base=$(sed -n '1s/^listening //p' "$tmp/out.txt")
key=$(sed -n '2s/^api-key //p' "$tmp/out.txt")
case "$base" in http://127.0.0.1:[0-9]*) ;; *) fail "first line is not 'listening http://ADDR': $(sed -n 1p "$tmp/out.txt")" ;; esac
[ ${#key} -ge 16 ] || fail "second line is not 'api-key KEY': $(sed -n 2p "$tmp/out.txt")"
curl -fsS "$base/.well-known/agent-card.json" | grep -q '"get_adcp_capabilities"' || fail "no agent card listing get_adcp_capabilities at $base/.well-known/agent-card.json"
curl -fsS -X POST "$base/mcp" -H 'Content-Type: application/json' -H 'Accept: application/json' -H "Authorization: Bearer $key" \
	-d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","arguments":{"buying_mode":"wholesale"}}}' \
	| grep -q '"product_id":"test-product"' || fail "get_products over MCP at $base/mcp"
# One binary, three releases: each pin answered in its release, all three listed.
for pin in 3.0 3.1 3.2-beta.5; do
	curl -fsS -X POST "$base/mcp" -H 'Content-Type: application/json' -H 'Accept: application/json' \
		-d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_adcp_capabilities","arguments":{"adcp_version":"'"$pin"'","adcp_major_version":3}}}' >"$tmp/caps.json" ||
		fail "get_adcp_capabilities at $pin"
	grep -q '"adcp_version":"'"$pin"'"' "$tmp/caps.json" || fail "get_adcp_capabilities at $pin: no echo of $pin: $(cat "$tmp/caps.json")"
	grep -q '"supported_versions":\["3.0","3.1","3.2-beta.5"\]' "$tmp/caps.json" || fail "get_adcp_capabilities at $pin: supported_versions: $(cat "$tmp/caps.json")"
done
code=$(curl -s -o "$tmp/401.txt" -w '%{http_code}' -X POST "$base/mcp" -H 'Content-Type: application/json' -H 'Accept: application/json' \
	-d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{}}}')
[ "$code" = 401 ] || fail "create_media_buy without the key answered HTTP $code, want 401"
kill "$pid"
wait "$pid" 2>"$tmp/wait.txt" || true
pid=
echo "run.sh: ok"
