//go:build adcpgen_bench

package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/adcpgen/adcpgen/internal/bench/gen/adcp"
	"github.com/adcpgen/adcpgen/internal/pgtest"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
)

// buyClients is how many buyers call at once (issue 27's load).
const buyClients = 32

// The PostgreSQL server of the store benchmarks: $ADCPGEN_TEST_PG (a role
// that may CREATE DATABASE), else a throwaway cluster (internal/pgtest:
// unix socket, fsync off, as the example replicas run), started once.
var (
	pgOnce    sync.Once
	pgBase    string // the server's DSN
	pgName    string // the benchmarks' database
	pgErr     error
	pgCluster *pgtest.Cluster
)

func TestMain(m *testing.M) {
	code := m.Run()
	if pgCluster != nil {
		if err := pgCluster.Remove(); err != nil {
			fmt.Fprintln(os.Stderr, "bench: remove the PostgreSQL cluster:", err)
		}
	}
	os.Exit(code)
}

// benchDatabase returns the server's DSN and the benchmarks' database,
// creating it on first use.
func benchDatabase(b *testing.B) (dsn, database string) {
	b.Helper()
	pgOnce.Do(func() {
		base := os.Getenv("ADCPGEN_TEST_PG")
		if base == "" {
			if pgCluster, pgErr = pgtest.Start(); pgErr != nil {
				return
			}
			base = pgCluster.DSN()
		}
		cfg, err := pgx.ParseConfig(base)
		if err != nil {
			pgErr = err
			return
		}
		name := fmt.Sprintf("adcpgen_bench_%d", os.Getpid())
		conn, err := pgx.ConnectConfig(context.Background(), cfg)
		if err != nil {
			pgErr = err
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), `CREATE DATABASE `+name); err != nil {
			pgErr = err
			return
		}
		pgBase, pgName = base, name
	})
	if pgErr != nil {
		b.Skipf("no PostgreSQL (set ADCPGEN_TEST_PG, or install initdb and pg_ctl): %v", pgErr)
	}
	return pgBase, pgName
}

// pgStore opens a pool of at most maxConns connections (0: pgx's default,
// max(4, GOMAXPROCS)) on the benchmark's database and a migrated, empty
// store on it.
func pgStore(b *testing.B, maxConns int32) *pgstore.Store {
	b.Helper()
	dsn, database := benchDatabase(b)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		b.Fatal(err)
	}
	cfg.ConnConfig.Database = database
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	s := pgstore.New(pool, nil)
	if err := s.Migrate(context.Background()); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(context.Background(), `TRUNCATE adcp_idempotency, adcp_tasks`); err != nil {
		b.Fatal(err)
	}
	return s
}

// buySeller is a seller as examples/seller runs one: the idempotency
// layer and the task manager on store, create_media_buy making a buy in
// memory, served over MCP (stateless, JSON answers) on loopback.
func buySeller(b *testing.B, store sellerstore.Store) string {
	b.Helper()
	layer := idempotency.New(adcp.Spec(), store, idempotency.Options{})
	tasks := sellertask.New(adcp.Spec(), sellertask.Options{Store: store})
	srv, err := seller.New(adcp.Spec(), seller.Options{Tasks: tasks, Middleware: []seller.Middleware{layer.Middleware()}})
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	buys := map[string]adcp.CreateMediaBuyRequest{}
	seller.HandleSync(srv, adcp.Tools.CreateMediaBuy, func(_ context.Context, req *adcp.CreateMediaBuyRequest) (*adcp.CreateMediaBuyResponse, error) {
		id := "mb_" + rand.Text()[:12]
		mu.Lock()
		buys[id] = *req
		mu.Unlock()
		status := adcp.MediaBuyStatus("pending_creatives")
		pkgs := []adcp.Package{}
		for i, p := range req.Packages {
			pkgs = append(pkgs, adcp.Package{PackageID: fmt.Sprintf("%s_pkg_%d", id, i+1), ProductID: &p.ProductID, Budget: &p.Budget})
		}
		resp := adcp.NewCreateMediaBuyResponseSuccess(adcp.CreateMediaBuySuccess{MediaBuyID: id, Status: &status, Packages: pkgs})
		return &resp, nil
	})
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(h)
	b.Cleanup(ts.Close)
	b.Cleanup(func() { _ = tasks.Close(context.Background()) })
	return ts.URL
}

// createBody is a tools/call of create_media_buy with a fresh
// idempotency_key.
func createBody(i int64) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"create_media_buy","arguments":`+
		`{"idempotency_key":"bench-%s","account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example"},`+
		`"brand":{"domain":"acmeoutdoor.example"},"start_time":"asap","end_time":"2099-07-31T23:59:59Z",`+
		`"packages":[{"product_id":"ctv-prime","budget":5000,"pricing_option_id":"cpm-usd"}]}}}`, i, rand.Text())
}

var buyOK = []byte(`"media_buy_id":"mb_`)

// BenchmarkSellerCreateMediaBuy is create_media_buy's throughput with 32
// buyers calling at once, each call a fresh idempotency key (claimed,
// handled, completed), over MCP on loopback HTTP: the memory store beside
// PostgreSQL (pgstore) with pgx's default pool (max(4, GOMAXPROCS)
// connections) and with 16 connections. It reports calls/s and the p99
// latency; ratios prints PostgreSQL's throughput as a share of memory's.
func BenchmarkSellerCreateMediaBuy(b *testing.B) {
	b.Run("memory", func(b *testing.B) { runBuys(b, buySeller(b, sellerstore.NewMemory(nil))) })
	b.Run("postgres-pool-default", func(b *testing.B) { runBuys(b, buySeller(b, pgStore(b, 0))) })
	b.Run("postgres-pool16", func(b *testing.B) { runBuys(b, buySeller(b, pgStore(b, 16))) })
}

func runBuys(b *testing.B, url string) {
	tr := &http.Transport{MaxIdleConnsPerHost: buyClients, MaxConnsPerHost: buyClients}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: time.Minute}
	var seq atomic.Int64
	var mu sync.Mutex
	var latencies []time.Duration
	var failures atomic.Int64
	var firstErr atomic.Value
	b.SetParallelism((buyClients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			body := createBody(seq.Add(1))
			t0 := time.Now()
			req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := hc.Do(req)
			if err != nil {
				failures.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
				continue
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			mine = append(mine, time.Since(t0))
			if resp.StatusCode != http.StatusOK || !bytes.Contains(out, buyOK) {
				failures.Add(1)
				firstErr.CompareAndSwap(nil, fmt.Sprintf("HTTP %d: %.300s", resp.StatusCode, out))
			}
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if n := failures.Load(); n > 0 {
		b.Fatalf("%d of %d calls failed; the first: %v", n, b.N, firstErr.Load())
	}
	slices.Sort(latencies)
	if len(latencies) > 0 {
		b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
}
