package pgstore

import (
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultMaxConns is the pool size ParseConfig gives a DSN that sets none.
// pgx's own default, the larger of 4 and the number of CPUs, queues a
// seller's calls behind four connections: each create_media_buy holds one
// for its claim, its unit of work's transaction and its completion, so 32
// buyers on a 2-core machine wait on the pool rather than on the database
// (internal/bench's README has the figures). Size it to the database's
// max_connections divided among the replicas.
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
