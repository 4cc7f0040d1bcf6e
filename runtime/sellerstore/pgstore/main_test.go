package pgstore_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/pgtest"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The tests need a PostgreSQL server: ADCPGEN_TEST_PG names one (a DSN of
// a role that may CREATE DATABASE; the tests work in a database of their
// own and drop it), else they start a throwaway cluster when initdb and
// pg_ctl are installed. Without either they skip, or fail when
// ADCP_REQUIRE_PG=1 (CI).
var (
	setupOnce sync.Once
	setupErr  error
	baseDSN   string          // the server's maintenance database
	testDB    string          // the database the tests own
	throwaway *pgtest.Cluster // the cluster we started, if any
)

func TestMain(m *testing.M) {
	code := m.Run()
	if err := teardown(); err != nil {
		fmt.Fprintln(os.Stderr, "pgstore tests: teardown:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// database returns the name of the tests' database, creating it (and the
// server) on first use.
func database(t testing.TB) string {
	t.Helper()
	setupOnce.Do(func() { setupErr = setup() })
	if setupErr != nil {
		if os.Getenv("ADCP_REQUIRE_PG") == "1" {
			t.Fatalf("ADCP_REQUIRE_PG=1 and no PostgreSQL: %v", setupErr)
		}
		t.Skipf("no PostgreSQL to test against (set ADCPGEN_TEST_PG to a DSN, or install initdb and pg_ctl): %v", setupErr)
	}
	return testDB
}

func setup() error {
	baseDSN = os.Getenv("ADCPGEN_TEST_PG")
	if baseDSN == "" {
		c, err := pgtest.Start()
		if err != nil {
			return fmt.Errorf("ADCPGEN_TEST_PG is unset and a throwaway server did not start: %w", err)
		}
		throwaway, baseDSN = c, c.DSN()
	}
	if _, err := pgx.ParseConfig(baseDSN); err != nil {
		return fmt.Errorf("ADCPGEN_TEST_PG: %w", err)
	}
	name := fmt.Sprintf("adcpgen_storetest_%d_%d", os.Getpid(), time.Now().UnixNano())
	if err := adminExec(`CREATE DATABASE ` + name); err != nil {
		return err
	}
	testDB = name
	return nil
}

// adminExec runs one statement on the maintenance database.
func adminExec(sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, baseDSN)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		return fmt.Errorf("%s: %w", sql, err)
	}
	return nil
}

func teardown() error {
	var errs []error
	if testDB != "" && throwaway == nil {
		errs = append(errs, adminExec(`DROP DATABASE IF EXISTS `+testDB+` WITH (FORCE)`))
	}
	if throwaway != nil {
		errs = append(errs, throwaway.Remove())
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// pool opens a pool on the tests' database, closed when t ends.
func pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	db := database(t)
	cfg, err := pgxpool.ParseConfig(baseDSN)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.Database = db
	cfg.MaxConns = 16 // the race tests send 50 callers: let many reach the server at once
	p, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// freshStore migrates (again: Migrate is idempotent), empties the tables
// and returns a store on p.
func freshStore(t *testing.T, p *pgxpool.Pool, clock sellerstore.Clock) *pgstore.Store {
	t.Helper()
	s := pgstore.New(p, clock)
	if err := s.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Exec(t.Context(), `TRUNCATE adcp_idempotency, adcp_tasks, adcp_signature_nonces, adcp_webhook_outbox, adcp_webhook_dedup`); err != nil {
		t.Fatal(err)
	}
	return s
}
