#!/bin/sh
# run.sh runs the buyer example end to end, the way CI does: generate the
# 3.0.26 bindings through the tool directive (from a mirror holding the
# published bundles, into a throwaway cache, checked against adcp.lock),
# vet and build the buyer, start the test seller (examples/seller), run the
# buyer against it over MCP and then A2A, check what it prints, that each
# run is one trace across both (OTEL_TRACES_EXPORTER=console on both) and
# that the seller's /metrics counts the calls, and stop the seller. It stops at the first failing step with a message saying
# which.
#
#   ADCP_SPEC_DIR   the published spec material (protocol/<version>.tgz and
#                   .sha256); default ../../../shared/adcp from this directory.
#   SELLER_URL      a seller already running (its base URL: MCP at /mcp, the
#                   A2A agent card under it); nothing is started or stopped.
#   SELLER_API_KEY  the API key of that seller.
#
# Nothing outside this directory and a temporary directory is written;
# adcp/ (the generated package) is rebuilt from scratch and is gitignored.
set -eu

fail() {
	echo "run.sh: FAILED: $*" >&2
	exit 1
}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
spec_dir=${ADCP_SPEC_DIR:-$here/../../../shared/adcp}
[ -f "$spec_dir/protocol/3.0.26.tgz" ] || fail "no published bundle at $spec_dir/protocol/3.0.26.tgz (set ADCP_SPEC_DIR)"
ADCP_MIRROR=$(cd "$spec_dir" && pwd)
ADCP_SPEC_DIR=$ADCP_MIRROR
export ADCP_SPEC_DIR
tmp=$(mktemp -d)
seller_pid=
stop_seller() {
	if [ -n "$seller_pid" ]; then
		kill "$seller_pid" 2>/dev/null || true
		wait "$seller_pid" 2>/dev/null || true
		seller_pid=
	fi
}
trap 'stop_seller; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
ADCP_CACHE=$tmp/cache
export ADCP_MIRROR ADCP_CACHE
cd "$here"

echo "run.sh: go generate (adcpgen generate --spec 3.0.26 via go tool, mirror $ADCP_MIRROR; 3.1.19 and 3.2.0-beta.5 from their trees)"
rm -rf adcp adcp31 adcp32
go generate ./... || fail "go generate"
for p in adcp adcp31 adcp32; do [ -f $p/doc.go ] || fail "go generate wrote no $p/doc.go"; done

echo "run.sh: go.mod and go.sum are tidy (adcpgen's dependencies may have changed)"
go mod tidy -diff || fail "examples/buyer/go.mod or go.sum is stale: run 'go mod tidy' in examples/buyer and commit the result"

echo "run.sh: go vet, go build"
go vet ./... || fail "go vet"
go build -o "$tmp/buyer" . || fail "go build"

if [ -n "${SELLER_URL:-}" ]; then
	base=$SELLER_URL
	key=${SELLER_API_KEY:-}
	echo "run.sh: seller at $base (SELLER_URL)"
else
	seller_dir=$root/examples/seller
	[ -f "$seller_dir/go.mod" ] || fail "no test seller module at examples/seller (or set SELLER_URL to a running one)"
	echo "run.sh: build the test seller (examples/seller, a module that generates its bindings as this one does)"
	(cd "$seller_dir" && go generate ./... && go build -o "$tmp/seller" .) || fail "building examples/seller"
	echo "run.sh: start the seller (spans on its stderr, metrics at /metrics)"
	OTEL_TRACES_EXPORTER=console "$tmp/seller" -addr 127.0.0.1:0 -metrics-addr 127.0.0.1:0 >"$tmp/seller.out" 2>"$tmp/seller.err" &
	seller_pid=$!
	# It prints "listening http://ADDR", "api-key KEY", "oauth-client ID
	# SECRET", then "metrics URL http://ADDR/metrics".
	i=0
	until grep -q '^metrics URL ' "$tmp/seller.out" 2>/dev/null; do
		kill -0 "$seller_pid" 2>/dev/null || fail "the seller exited: $(cat "$tmp/seller.err")"
		i=$((i + 1))
		[ "$i" -le 300 ] || fail "the seller did not say where it listens within 30 s: $(cat "$tmp/seller.out")"
		sleep 0.1
	done
	base=$(sed -n 's/^listening //p' "$tmp/seller.out" | head -n 1)
	key=$(sed -n 's/^api-key //p' "$tmp/seller.out" | head -n 1)
	metrics=$(sed -n 's/^metrics URL //p' "$tmp/seller.out" | head -n 1)
	[ -n "$base" ] || fail "the seller printed no 'listening' line: $(cat "$tmp/seller.out")"
fi

# traced FILE TRANSPORT: the buyer's run is one trace (its root span "buyer
# TRANSPORT", printed by the console exporter on its stderr), and the
# seller's spans of the calls, on the seller's stderr, are in it.
traced() {
	trace=$(grep -o '"Name":"buyer '"$2"'","SpanContext":{"TraceID":"[0-9a-f]*"' "$1" | sed 's/.*"TraceID":"//; s/"$//')
	[ -n "$trace" ] || fail "$2: the buyer printed no span of its run (OTEL_TRACES_EXPORTER=console)"
	for span in "tools/call get_products" "tools/call create_media_buy" adcp.idempotency adcp.handler; do
		[ "$2" = a2a ] && span=$(echo "$span" | sed 's|^tools/call|message/send|')
		grep -q '"Name":"'"$span"'","SpanContext":{"TraceID":"'"$trace"'"' "$tmp/seller.err" ||
			fail "$2: the seller has no span '$span' in the buyer's trace $trace"
	done
}

# check FILE TRANSPORT: what the buyer must print (IDs vary by seller).
check() {
	out=$1
	want_first="AdCP 3.0.26 over $2"
	[ "$(head -n 1 "$out")" = "$want_first" ] || fail "$2: first line is not '$want_first'"
	grep -Eq '^tools: (.* )?get_products( |$)' "$out" || fail "$2: get_products is not among the tools"
	grep -Eq '^tools: (.* )?create_media_buy( |$)' "$out" || fail "$2: create_media_buy is not among the tools"
	grep -Eq '^product [^ ]+: .+ \((guaranteed|non_guaranteed)\), pricing [^ ]+ \([a-z_]+\)$' "$out" || fail "$2: no product line"
	grep -q '^releases: 3.0 3.1 3.2-beta.5$' "$out" || fail "$2: the seller does not list 3.0, 3.1 and 3.2-beta.5"
	for pin in 3.1 3.2-beta.5; do
		grep -Eq "^get_products at $pin: completed, [1-9][0-9]* products$" "$out" || fail "$2: no products at $pin"
	done
	grep -Eq '^create_media_buy: submitted, task [^ ,]+, idempotency_key a generated UUID v4$' "$out" ||
		fail "$2: the media buy was not submitted with a generated idempotency key"
	grep -Eq '^create_media_buy: completed, media buy [^ ,]+, status [a-z_]+, [1-9][0-9]* package\(s\)$' "$out" ||
		fail "$2: the media buy did not complete"
	[ "$(wc -l <"$out")" -ge 5 ] || fail "$2: too few lines"
}

for transport in mcp a2a; do
	agent=$base/mcp
	[ "$transport" = a2a ] && agent=$base
	echo "run.sh: buyer over $transport ($agent)"
	OTEL_TRACES_EXPORTER=console "$tmp/buyer" -transport "$transport" -agent "$agent" -api-key "$key" >"$tmp/$transport.txt" 2>"$tmp/$transport.err" ||
		fail "the buyer exited with status $? over $transport: $(cat "$tmp/$transport.txt" "$tmp/$transport.err")"
	cat "$tmp/$transport.txt"
	check "$tmp/$transport.txt" "$transport"
	[ -n "$seller_pid" ] && traced "$tmp/$transport.err" "$transport"
done

if [ -n "$seller_pid" ]; then
	echo "run.sh: the seller's /metrics counts the calls by tool and outcome, an AdCP error by its code"
	# A create_media_buy without its required members: INVALID_REQUEST.
	curl -fsS -X POST "$base/mcp" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
		-H 'Accept: application/json, text/event-stream' \
		-d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{}}}' >/dev/null ||
		fail "the refused call"
	curl -fsS "$metrics" >"$tmp/metrics.txt" || fail "GET $metrics"
	for want in \
		'^mcp_server_operation_duration_seconds_count{.*adcp_task_status="completed".*gen_ai_tool_name="get_products".*} 1$' \
		'^rpc_server_call_duration_seconds_count{.*adcp_task_status="completed".*gen_ai_tool_name="get_products".*} 1$' \
		'^mcp_server_operation_duration_seconds_count{adcp_error_code="INVALID_REQUEST".*error_type="tool_error".*gen_ai_tool_name="create_media_buy".*} 1$' \
		'^adcp_idempotency_requests_total{adcp_idempotency_outcome="claimed",gen_ai_tool_name="create_media_buy".*} 2$'; do
		grep -Eq "$want" "$tmp/metrics.txt" || fail "/metrics has no line matching $want"
	done
fi

if [ -n "$seller_pid" ]; then
	echo "run.sh: stop the seller"
	stop_seller
fi
echo "run.sh: ok"
