package pgstore

import (
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultMaxConns is the pool size ParseConfig gives a DSN that sets none,
// for a database on machines of its own: each create_media_buy holds a
// connection for its claim, for its unit of work's transaction and for its
// completion, and with the database's round trips on a network more
// connections keep more calls moving (issue 27 measured 854 calls/s at 32
// buyers with 16 against 316 to 371 with pgx's default, the larger of 4
// and the number of CPUs). With the database sharing the seller's few
// cores, fewer connections contend less: internal/bench's README has this
// project's figures. Size the pool to the database's max_connections
// divided among the replicas, in the DSN (pool_max_conns) or after
// ParseConfig.
const DefaultMaxConns = 16

// ParseConfig reads dsn (a URL or key=value DSN, as pgxpool.ParseConfig)
// into a pool configuration with DefaultMaxConns connections, unless dsn
// sets pool_max_conns itself. Give the result to pgxpool.NewWithConfig.
func ParseConfig(dsn string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	return cfg, nil
}
