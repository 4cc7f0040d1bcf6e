package pgstore_test

import (
	"context"
	"log"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
)

// A store for every replica: the same database, migrated at start-up
// (safe from every replica at once). Compiled, not run: it needs a
// PostgreSQL server.
func Example() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://seller@db.internal/seller")
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	store := pgstore.New(pool, nil) // nil: the machine's clock
	if err := store.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	_ = store // give it to idempotency.New, sellertask.New and seller.Options.SignedRequests.Replay (store.Nonces())
}
