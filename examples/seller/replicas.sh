#!/bin/sh
# replicas.sh runs the example seller as two replicas on one PostgreSQL
# database ($ADCPGEN_TEST_PG, else a throwaway cluster: ../pg.sh) and
# checks its async flow across them with adcpgen call: a create_media_buy
# submitted to replica a, retried on b (the same key: the first answer,
# task id and message, marked replayed), its task read on b (finished there
# from the request the store kept). run.sh first builds bin/seller and the
# bindings; this reuses them. It stops what it started.
#
#   ADCP_SPEC_DIR  the published spec material; default ../../../shared/adcp.
set -eu

fail() {
	echo "replicas.sh: FAILED: $*" >&2
	exit 1
}

here=$(cd "$(dirname "$0")" && pwd)
spec_dir=${ADCP_SPEC_DIR:-$here/../../../shared/adcp}
ADCP_MIRROR=$(cd "$spec_dir" && pwd)
tmp=$(mktemp -d)
ADCP_CACHE=$tmp/cache
export ADCP_MIRROR ADCP_CACHE
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
[ -x bin/seller ] && [ -f adcp/doc.go ] || fail "no bin/seller or adcp/: run run.sh first"

dsn=${ADCPGEN_TEST_PG:-}
if [ -z "$dsn" ]; then
	pgdir=$(mktemp -u /tmp/adcpgen-pg-XXXXXX)
	echo "replicas.sh: start PostgreSQL (../pg.sh start $pgdir)"
	dsn=$("$here/../pg.sh" start "$pgdir") || { pgdir=; fail "PostgreSQL did not start"; }
fi
key=key-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
start() { # start NAME [FLAG...]: a replica on a free loopback port; sets base_NAME
	name=$1
	shift
	: >"$tmp/$name.out"
	./bin/seller -addr 127.0.0.1:0 -api-key "$key" -postgres "$dsn" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pids="$pids $!"
	i=0
	while [ "$(wc -l <"$tmp/$name.out")" -lt 2 ]; do
		i=$((i + 1))
		[ $i -le 150 ] || fail "replica $name printed no address within 15s: $(cat "$tmp/$name.err")"
		sleep 0.1
	done
	eval "base_$name=\$(sed -n '1s/^listening //p' \"\$tmp/\$name.out\")"
}
echo "replicas.sh: start replicas a and b on one database (b does not purge)"
start a
start b -purge=false

call() { # call AGENT TOOL REQUEST: adcpgen call, its JSON output in $tmp/out.json
	echo "$3" | go tool adcpgen call --agent "$1/mcp" --spec 3.0.26 --tool "$2" --request - --header "Authorization=Bearer $key" \
		>"$tmp/out.json" 2>"$tmp/err.txt" || fail "adcpgen call $2 at $1: $(cat "$tmp/err.txt" "$tmp/out.json")"
}
field() { sed -n 's/^  "'"$1"'": "\(.*\)",*$/\1/p' "$tmp/out.json" | head -1; }

buy='{"idempotency_key":"KEY","account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example"},"brand":{"domain":"acmeoutdoor.example"},"start_time":"asap","end_time":"2099-07-31T23:59:59Z","po_number":"async-replicas","packages":[{"product_id":"test-product","budget":5000,"pricing_option_id":"test-pricing"}]}'
buy=$(echo "$buy" | sed "s/KEY/replicas-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')/")
echo "replicas.sh: create_media_buy (async) on a"
call "$base_a" create_media_buy "$buy"
[ "$(field status)" = submitted ] || fail "not submitted on a: $(cat "$tmp/out.json")"
task=$(field task_id)
message=$(field message)
[ -n "$task" ] || fail "no task_id: $(cat "$tmp/out.json")"
echo "replicas.sh: the same request and key on b: the first answer, replayed"
call "$base_b" create_media_buy "$buy"
[ "$(field status)" = submitted ] && [ "$(field task_id)" = "$task" ] && [ "$(field message)" = "$message" ] ||
	fail "the retry on b is not the first answer ($task, $message): $(cat "$tmp/out.json")"
grep -q '"replayed": true' "$tmp/out.json" || fail "the retry on b is not marked replayed: $(cat "$tmp/out.json")"
echo "replicas.sh: tasks/get on b: finished there"
call "$base_b" tasks/get '{"task_id":"'"$task"'"}'
grep -q '"status": "completed"' "$tmp/out.json" && grep -q '"media_buy_id"' "$tmp/out.json" ||
	fail "task $task not completed on b: $(cat "$tmp/out.json" "$tmp/a.err" "$tmp/b.err")"

# The issue's racing polls: each task polled on both replicas at once.
# The work that finishes a task is claimed (seller.WorkOnTask), and its buy
# is booked in the transaction that completes the task: one buy per task.
rpc() { # rpc BASE TOOL ARGS: a tools/call over MCP, its JSON-RPC answer on stdout
	curl -fsS -X POST "$1/mcp" -H 'Content-Type: application/json' -H 'Accept: application/json' -H "Authorization: Bearer $key" \
		-d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"'"$2"'","arguments":'"$3"'}}'
}
echo "replicas.sh: 10 async buys, each task polled on both replicas at once: one buy per task"
tasks=
for i in 1 2 3 4 5 6 7 8 9 10; do
	k=race-$i-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	rpc "$base_a" create_media_buy "$(echo "$buy" | sed "s/replicas-[0-9a-f]*/$k/")" >"$tmp/race.json" || fail "async buy $i: $(cat "$tmp/race.json")"
	t=$(sed -n 's/.*"task_id":"\(task_[A-Z0-9]*\)".*/\1/p' "$tmp/race.json" | head -1)
	[ -n "$t" ] || fail "async buy $i has no task_id: $(cat "$tmp/race.json")"
	tasks="$tasks $t"
done
polls=
for t in $tasks; do
	for r in "$base_a" "$base_b" "$base_a" "$base_b"; do
		rpc "$r" tasks/get '{"task_id":"'"$t"'"}' >/dev/null &
		polls="$polls $!"
	done
done
for p in $polls; do wait "$p" || fail "a racing poll failed"; done
in=$(echo $tasks | sed "s/ /','/g")
counts=$(psql "$dsn" -Atc "SELECT count(*), count(DISTINCT task_id) FROM seller_media_buys WHERE task_id IN ('$in')") ||
	fail "psql could not count the buys"
[ "$counts" = "10|10" ] || fail "the racing polls made $counts buys|tasks, want 10|10"
echo "replicas.sh: ok"
