// Package pgtest starts throwaway PostgreSQL clusters for tests and
// benchmarks: initdb into a temporary directory, pg_ctl start listening on
// a unix socket there only (no port to collide on), durability off. A
// cluster can be stopped, started again and restarted with its data, the
// faults a seller's store must survive (a database restarted or down under
// load), then removed.
//
// initdb and pg_ctl are looked up on PATH, then in Debian's
// /usr/lib/postgresql/<version>/bin (the newest), where the postgresql
// package puts them off PATH. initdb refuses to run as root, so as root the
// cluster runs as the "postgres" user (Debian's package creates it).
// .ci/postgres.sh installs PostgreSQL when it is missing.
package pgtest
