package pgstore_test

import (
	"context"
	"log"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
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

// A handler behind the idempotency layer books its media buy in the
// call's transaction: the buy, the record of the answer naming it (and a
// task the call started) commit together or not at all, so a buyer's
// retry after any fault replays the one buy or makes it, never a second.
// Compiled, not run: it needs a PostgreSQL server.
func ExampleStore_InTx() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://seller@db.internal/seller")
	if err != nil {
		log.Fatal(err)
	}
	store := pgstore.New(pool, nil)
	layer := idempotency.New(adcpt.Spec(), store, idempotency.Options{})
	srv, err := seller.New(adcpt.Spec(), seller.Options{Middleware: []seller.Middleware{layer.Middleware()},
		Tasks: sellertask.New(adcpt.Spec(), sellertask.Options{Store: store})})
	if err != nil {
		log.Fatal(err)
	}
	seller.HandleSync(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResponse, error) {
		id := "mb_" + req.IdempotencyKey
		err := store.InTx(ctx, func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO media_buys (id, principal) VALUES ($1, $2)`, id, seller.CallFrom(ctx).Principal.ID)
			return err
		})
		if err != nil {
			return nil, err // a database away: SERVICE_UNAVAILABLE with its retry_after
		}
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: id})
		return &resp, nil
	})
}
