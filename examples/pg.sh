#!/bin/sh
# pg.sh start DIR | stop DIR: a throwaway PostgreSQL cluster in DIR (which
# must not exist), listening on a unix socket there only, durability off;
# start prints its DSN. initdb refuses to run as root: as root the cluster
# runs as the postgres user (Debian's package creates it). initdb and
# pg_ctl are looked up on PATH, then in Debian's /usr/lib/postgresql/*/bin.
set -eu

bin=
if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
	bin=$(dirname "$(command -v initdb)")
else
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bin=$d; break; fi
	done
fi
[ -n "$bin" ] || { echo "pg.sh: initdb and pg_ctl not found (install PostgreSQL, or set ADCPGEN_TEST_PG)" >&2; exit 1; }

as_owner() {
	if [ "$(id -u)" = 0 ]; then
		su postgres -s /bin/sh -c "$*"
	else
		sh -c "$*"
	fi
}

case "${1:-}" in
start)
	dir=$2
	mkdir "$dir"
	[ "$(id -u)" = 0 ] && chown postgres "$dir"
	as_owner "'$bin/initdb' -D '$dir/data' -U adcpgen -A trust -E UTF8 --no-locale --no-sync >'$dir/initdb.log' 2>&1" ||
		{ cat "$dir/initdb.log" >&2; exit 1; }
	as_owner "'$bin/pg_ctl' -D '$dir/data' -l '$dir/log' -o \"-k $dir -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off\" -w -t 60 start >/dev/null" ||
		{ cat "$dir/log" >&2; exit 1; }
	echo "host=$dir user=adcpgen dbname=postgres sslmode=disable"
	;;
stop)
	dir=$2
	as_owner "'$bin/pg_ctl' -D '$dir/data' -m immediate -w -t 60 stop >/dev/null" || true
	rm -rf "$dir"
	;;
*)
	echo "usage: pg.sh start DIR | stop DIR" >&2
	exit 2
	;;
esac
