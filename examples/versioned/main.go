// Command versioned is an AdCP seller for the spec version go generate
// made its bindings from (3.1.19 or 3.2.0-beta.5, each published only as a
// schema tree), built to run as several replicas on one PostgreSQL
// database: get_products, an idempotent create_media_buy that answers
// submitted when po_number begins with "async" (the task completes on the
// buyer's first status poll, on whichever replica it reaches), the status
// tools, over stateless MCP at /mcp and A2A at /a2a.
//
//	ADCP_TREE=../../../shared/adcp/schemas/3.1.19 go generate
//	go run . -addr 127.0.0.1:8080 -api-key KEY -postgres "$DSN" [-purge=false] [-replica NAME]
//
// It prints `listening http://ADDR`, then `api-key KEY`. Without -postgres
// it keeps its state in memory (one replica). Exactly one replica of a
// database should purge (-purge, the default): purging is idempotent, but
// one is enough.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/sellerhttp"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "versioned:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	apiKey := flag.String("api-key", "", "the buyers' API key (default: a random one, printed)")
	dsn := flag.String("postgres", "", "PostgreSQL DSN of the store the replicas share (default: in memory, one replica)")
	purge := flag.Bool("purge", true, "purge ended tasks and idempotency records hourly; run it on one replica of a database")
	replica := flag.String("replica", "", "this replica's name, in the messages it sends (default: its address)")
	flag.Parse()
	key := *apiKey
	if key == "" {
		var b [16]byte
		_, _ = rand.Read(b[:])
		key = hex.EncodeToString(b[:])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var store sellerstore.Store = sellerstore.NewMemory(nil)
	if *dsn != "" {
		pool, err := pgxpool.New(ctx, *dsn)
		if err != nil {
			return err
		}
		defer pool.Close()
		pg := pgstore.New(pool, nil)
		// Safe from every replica at once: one applies each migration.
		if err := pg.Migrate(ctx); err != nil {
			return err
		}
		store = pg
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	name := *replica
	if name == "" {
		name = ln.Addr().String()
	}
	a, err := newAgent(config{BaseURL: base, APIKey: key, Store: store, Replica: name, Logger: logger})
	if err != nil {
		ln.Close()
		return err
	}
	fmt.Println("listening " + base)
	fmt.Println("api-key " + key)

	// Header, body, write and idle limits (runtime/sellerhttp's package doc).
	hs := sellerhttp.New("", a.handler, sellerhttp.Options{})
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	if *purge {
		go sellerstore.PurgePeriodically(ctx, store, sellerstore.PurgeOptions{
			Every: time.Hour, Keep: idempotency.DefaultRetention,
			Report: func(_ sellerstore.Purged, err error) {
				if err != nil {
					logger.Warn("purge failed", "err", err.Error())
				}
			},
		})
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = hs.Shutdown(shutdown)
	if werr := a.tasks.Close(shutdown); werr != nil {
		logger.Warn("webhook deliveries cancelled at exit", "err", werr.Error())
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
