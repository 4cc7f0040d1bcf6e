package pgstore_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock sellerstore.Clock) sellerstore.Store {
		return freshStore(t, pool(t), clock)
	})
}

// TestTwoInstances runs the replica tests on two stores with separate
// pools on one database, as two seller processes would.
func TestTwoInstances(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T, clock sellerstore.Clock) (a, b sellerstore.Store) {
		return freshStore(t, pool(t), clock), pgstore.New(pool(t), clock)
	})
}

func TestMigrateConcurrentlyOnce(t *testing.T) {
	p := pool(t)
	if _, err := p.Exec(t.Context(), `DROP TABLE IF EXISTS adcp_store_migrations, adcp_idempotency, adcp_tasks, adcp_signature_nonces, adcp_webhook_outbox, adcp_webhook_dedup`); err != nil {
		t.Fatal(err)
	}
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = pgstore.New(p, nil).Migrate(context.Background()) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("replica %d: Migrate: %v", i, err)
		}
	}
	var versions, latest int
	if err := p.QueryRow(t.Context(), `SELECT count(*), max(version) FROM adcp_store_migrations`).Scan(&versions, &latest); err != nil {
		t.Fatal(err)
	}
	if versions != pgstore.SchemaVersion() || latest != pgstore.SchemaVersion() {
		t.Fatalf("%d migrations recorded up to version %d, want %d", versions, latest, pgstore.SchemaVersion())
	}
}

func TestMigrateRefusesNewerSchema(t *testing.T) {
	p := pool(t)
	s := freshStore(t, p, nil)
	if _, err := p.Exec(t.Context(), `INSERT INTO adcp_store_migrations (version) VALUES (1000)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = p.Exec(context.Background(), `DELETE FROM adcp_store_migrations WHERE version = 1000`)
	})
	err := s.Migrate(t.Context())
	if err == nil || !strings.Contains(err.Error(), "version 1000, newer than") {
		t.Fatalf("Migrate on a newer schema: %v, want a refusal", err)
	}
}

func TestParseConfigPoolSize(t *testing.T) {
	for dsn, want := range map[string]int32{
		"host=/tmp user=seller dbname=seller":                    pgstore.DefaultMaxConns,
		"postgres://seller@db.internal/seller":                   pgstore.DefaultMaxConns,
		"postgres://seller@db.internal/seller?pool_max_conns=40": 40,
		"host=/tmp dbname=seller pool_max_conns=3":               3,
	} {
		cfg, err := pgstore.ParseConfig(dsn)
		if err != nil || cfg.MaxConns != want {
			t.Errorf("%s: %d connections (%v), want %d", dsn, cfg.MaxConns, err, want)
		}
	}
	if _, err := pgstore.ParseConfig("postgres://%zz"); err == nil {
		t.Error("a malformed DSN parsed")
	}
}
