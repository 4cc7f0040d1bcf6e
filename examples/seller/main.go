// Command seller is a runnable AdCP seller built with adcpgen, serving
// 3.0.26, 3.1.19 and 3.2.0-beta.5 from one binary (releases.go): typed
// handlers, written against 3.0.26, for every tool of the media_buy and
// creative protocols and the account tools (tools.go), get_adcp_capabilities answered from what is
// registered, governance checks before a buy, idempotent mutations, async
// tasks (po_number "async..." answers submitted; the task completes on the
// buyer's first status poll) with webhooks, and the status tools, over MCP
// at /mcp and A2A at /a2a, with the agent card at
// /.well-known/agent-card.json, on one address.
//
//	go generate && go run . [-addr 127.0.0.1:8080] [-api-key KEY] [-postgres DSN [-postgres-pool N] [-purge=false]]
//
// With -postgres its idempotency records, tasks and media buys are in
// PostgreSQL (runtime/sellerstore/pgstore), so several replicas serve the
// same buyers (MCP is stateless): a buy is booked in the transaction that
// records the answer naming it (or the task's completion), so a retry after
// a database restart or a replica killed mid-call replays it or makes it,
// never twice (book.go). -postgres-pool sizes the connection pool
// (pgstore.DefaultMaxConns by default). Exactly one replica of a database
// should purge (-purge, the default).
//
// Webhooks are signed with RFC 9421 under -signing-key (a private JWK; one
// is made at start-up otherwise), published at /.well-known/brand.json's
// jwks_uri; -buyer-jwks names the buyers whose request signatures are
// verified; with -sandbox the compliance runner's keys are trusted and its
// grading endpoints served (README.md, Signatures).
//
// With -governance-agent it serves the example governance agent (package
// govagent) instead; -tls-cert and -tls-key serve either over HTTPS.
//
// It prints `listening http://ADDR`, then `api-key KEY` (a random key
// unless -api-key sets one), then `oauth-client ID SECRET`, and with
// -metrics-addr `metrics URL http://ADDR/metrics` (Prometheus text).
// Traces and metrics go where the OTEL_* environment says (telemetry.go). Buyers send the
// key as "Authorization: Bearer KEY", or an access token of the seller's
// own OAuth authorization server: the client credentials grant at
// /oauth/token (metadata at /.well-known/oauth-authorization-server; each
// endpoint's protected-resource metadata at
// /.well-known/oauth-protected-resource/mcp and .../a2a).
package main

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"example.com/seller/govagent"

	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/sellerhttp"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "seller:", err)
		os.Exit(1)
	}
}

func randomHex() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	apiKey := flag.String("api-key", "", "the buyers' API key (default: a random one, printed)")
	liveKey := flag.String("live-api-key", "", "the API key of a buyer whose accounts are live, not sandbox: with -sandbox, comply_test_controller refuses it (the compliance runner's live-mode test kit)")
	clientID := flag.String("oauth-client-id", "buyer", "the buyers' OAuth client id at the built-in authorization server")
	clientSecret := flag.String("oauth-client-secret", "", "the buyers' OAuth client secret, 16 characters or more (default: a random one, printed)")
	sandbox := flag.Bool("sandbox", false, "serve comply_test_controller, the compliance test controller, for sandbox accounts (never in production)")
	loopback := flag.String("webhook-loopback", "auto", `accept http:// loopback webhook URLs: "true", "false", "auto" (when listening on loopback), or "only" (tests: post to loopback hosts and nowhere else)`)
	dsn := flag.String("postgres", "", "PostgreSQL DSN of the store the replicas share (default: in memory, one replica)")
	poolSize := flag.Int("postgres-pool", 0, "connections in the PostgreSQL pool (default: the DSN's pool_max_conns, else pgstore.DefaultMaxConns, 16)")
	purge := flag.Bool("purge", true, "purge ended tasks and idempotency records hourly; on one replica of a database")
	var sg signingConfig
	flag.StringVar(&sg.KeyFile, "signing-key", "", "the seller's private JWK signing its webhooks (adcpgen keygen --adcp-use webhook-signing; default: one made at start-up)")
	flag.StringVar(&sg.BuyerJWKS, "buyer-jwks", "", "a JWKS file of the buyers whose RFC 9421 request signatures are verified")
	flag.IntVar(&sg.GradingReplayCap, "signing-replay-cap", 100, "with -sandbox, the per-keyid replay cap of request signatures (the signed-requests runner's target)")
	govLoopback := flag.String("governance-loopback", "auto", `call governance agents on loopback: "true", "false", "auto" (when listening on loopback), or "only" (tests: loopback hosts and nowhere else)`)
	govCA := flag.String("governance-ca", "", "PEM file of the certificate authorities governance agents' certificates are checked against (default: the system's)")
	govAgent := flag.Bool("governance-agent", false, "serve the example governance agent (govagent: sync_plans, check_governance) at /mcp instead of the seller; -api-key takes a comma-separated list of keys then")
	tlsCert := flag.String("tls-cert", "", "serve HTTPS with this PEM certificate (and -tls-key)")
	tlsKey := flag.String("tls-key", "", "the PEM private key of -tls-cert")
	metricsAddr := flag.String("metrics-addr", "", "serve the metrics as Prometheus text at http://ADDR/metrics (host:port; port 0 picks a free one); traces and metrics also go where the OTEL_* environment says")
	clockAt := flag.String("clock", "", "with -sandbox or -governance-agent, start the agent's clock at this RFC 3339 instant (it runs on at the real pace): a compliance runner's clock, for storyboards with fixed dates")
	flag.Parse()
	now, err := startClock(*clockAt, *sandbox || *govAgent)
	if err != nil {
		return err
	}
	if *govAgent {
		return runGovernanceAgent(*addr, *apiKey, *tlsCert, *tlsKey, now)
	}
	key, secret := *apiKey, *clientSecret
	if key == "" {
		key = randomHex()
	}
	if secret == "" {
		secret = randomHex()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tel, err := startTelemetry(ctx, *metricsAddr)
	if err != nil {
		return err
	}
	defer func() {
		flush, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = tel.shutdown(flush)
	}()
	var store sellerstore.Store = sellerstore.NewMemory(clock(now))
	if *dsn != "" {
		cfg, err := pgstore.ParseConfig(*dsn)
		if err != nil {
			return err
		}
		if *poolSize > 0 {
			cfg.MaxConns = int32(*poolSize)
		}
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			return err
		}
		defer pool.Close()
		pg := pgstore.New(pool, clock(now))
		if err := pg.Migrate(ctx); err != nil { // safe from every replica at once
			return err
		}
		store = pg
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := scheme(*tlsCert) + "://" + ln.Addr().String()
	switch *loopback {
	case "true", "false", "auto", "only":
	default:
		return fmt.Errorf("-webhook-loopback %q: want true, false, auto or only", *loopback)
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	onLoopback := net.ParseIP(host) != nil && net.ParseIP(host).IsLoopback()
	allowLoopback := *loopback == "true" || *loopback == "only" || (*loopback == "auto" && onLoopback)
	switch *govLoopback {
	case "true", "false", "auto", "only":
	default:
		ln.Close()
		return fmt.Errorf("-governance-loopback %q: want true, false, auto or only", *govLoopback)
	}
	gov := governanceConfig{
		Loopback:     *govLoopback == "true" || *govLoopback == "only" || (*govLoopback == "auto" && onLoopback),
		LoopbackOnly: *govLoopback == "only",
	}
	if *govCA != "" {
		pem, err := os.ReadFile(*govCA)
		if err != nil {
			ln.Close()
			return fmt.Errorf("-governance-ca: %w", err)
		}
		gov.RootCAs = x509.NewCertPool()
		if !gov.RootCAs.AppendCertsFromPEM(pem) {
			ln.Close()
			return fmt.Errorf("-governance-ca %s: no PEM certificate in it", *govCA)
		}
	}
	logger := slog.New(tel.logHandler(slog.NewTextHandler(os.Stderr, nil)))
	if *liveKey != "" && *liveKey == key {
		ln.Close()
		return errors.New("-live-api-key: the same key as -api-key")
	}
	a, err := newAgent(config{BaseURL: base, APIKey: key, LiveAPIKey: *liveKey, OAuthClientID: *clientID, OAuthClientSecret: secret, WebhookLoopback: allowLoopback,
		WebhookLoopbackOnly: *loopback == "only", Sandbox: *sandbox, Store: store, Signing: sg, Governance: gov, Logger: logger, Now: now,
		Observer: tel.obs})
	if err != nil {
		ln.Close()
		return err
	}
	fmt.Println("listening " + base)
	fmt.Println("api-key " + key)
	fmt.Println("oauth-client " + *clientID + " " + secret)
	if ms := tel.serveMetrics(); ms != nil {
		defer ms.Close()
	}

	// Header, body, write and idle limits (runtime/sellerhttp's package doc).
	hs := sellerhttp.New("", tel.handler(a.handler), sellerhttp.Options{})
	errc := make(chan error, 1)
	go func() { errc <- serve(hs, ln, *tlsCert, *tlsKey) }()
	// Stores never delete on their own: drop ended tasks and idempotency
	// records a day past the replay window (one replica per database).
	if *purge {
		go sellerstore.PurgePeriodically(ctx, a.store, sellerstore.PurgeOptions{
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

// startClock is the agent's clock: time.Now, or with at (RFC 3339) a clock
// that read at when the agent started and runs at the real pace. Only a
// sandbox may move it: production agents keep the real time.
func startClock(at string, sandbox bool) (func() time.Time, error) {
	if at == "" {
		return time.Now, nil
	}
	if !sandbox {
		return nil, errors.New("-clock: only with -sandbox or -governance-agent")
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return nil, fmt.Errorf("-clock: %w", err)
	}
	offset := time.Until(t)
	return func() time.Time { return time.Now().Add(offset) }, nil
}

// scheme is https when the server has a certificate.
func scheme(cert string) string {
	if cert != "" {
		return "https"
	}
	return "http"
}

// serve serves hs on ln, over TLS with cert and key when given.
func serve(hs *http.Server, ln net.Listener, cert, key string) error {
	if cert != "" {
		return hs.ServeTLS(ln, cert, key)
	}
	return hs.Serve(ln)
}

// runGovernanceAgent serves the example governance agent at /mcp until
// interrupted. It prints `listening BASE` and `api-key KEYS`.
func runGovernanceAgent(addr, keys, cert, key string, now func() time.Time) error {
	if keys == "" {
		keys = randomHex()
	}
	accepted := map[string]string{}
	for i, k := range strings.Split(keys, ",") {
		accepted[k] = "caller-" + strconv.Itoa(i+1)
	}
	tree, err := openSchemas()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	base := scheme(cert) + "://" + ln.Addr().String()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var releases []govagent.Release
	for _, sp := range laterSpecs() {
		t, err := openTree(sp.Version())
		if err != nil {
			ln.Close()
			return err
		}
		releases = append(releases, govagent.Release{Spec: sp, Schemas: t})
	}
	h, err := govagent.New(govagent.Config{URL: base + "/mcp", Schemas: tree, Keys: accepted, Logger: logger, Now: now, Releases: releases})
	if err != nil {
		ln.Close()
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	fmt.Println("listening " + base)
	fmt.Println("api-key " + keys)
	hs := sellerhttp.New("", mux, sellerhttp.Options{})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- serve(hs, ln, cert, key) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
