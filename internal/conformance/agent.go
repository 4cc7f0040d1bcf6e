package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

// agent is the seller under test: MCP at BaseURL/mcp, A2A at BaseURL/a2a
// (with its agent card under /a2a too, where the runner looks for it).
type agent struct {
	BaseURL string
	APIKey  string
	stop    func()
	// client calls the agent (it trusts the run's certificate).
	client *http.Client
}

func (a *agent) url(protocol string) string { return a.BaseURL + "/" + protocol }

// sellers starts the seller under test for each storyboard run: a fresh
// one each time when this program runs it, as a sandbox isolated per run
// (the storyboards use fixed idempotency keys and fixed forced task ids, so
// a second run against the same seller would replay or conflict with the
// first), or the running one -agent names.
type sellers struct {
	// Name says which seller it is.
	Name string
	// liveKey is the API key of a live-mode (non-sandbox) buyer the
	// seller knows, which the runs' test kit declares: the
	// comply_controller_mode_gate storyboard wants the controller to
	// refuse it, security_baseline its protected task to serve it.
	liveKey string
	// caFile is the certificate the started sellers serve HTTPS with (the
	// runner trusts it through NODE_EXTRA_CA_CERTS), "" for sellers on
	// plain HTTP.
	caFile, caKey string
	// start starts a seller with flags (examples/seller's), its log going
	// to the file log ("" for standard error).
	start func(ctx context.Context, log string, flags ...string) (*agent, error)
	// governance starts examples/seller's governance agent on TLS with
	// the sellers' certificate, nil for other sellers.
	governance func(ctx context.Context, log string, flags ...string) (*agent, error)
	close      func()
}

// newSellers prepares the seller cfg names: a running one (cfg.agentURL),
// the JavaScript SDK's seller (cfg.seller "js"), or examples/seller, built
// once and started on a free loopback port (cfg.seller "go").
func newSellers(ctx context.Context, cfg *config, env *jsinterop.Env) (*sellers, error) {
	if cfg.agentURL != "" {
		a := &agent{BaseURL: strings.TrimRight(cfg.agentURL, "/"), APIKey: cfg.auth, stop: func() {}}
		live := cfg.liveAuth
		if live == "" {
			live = cfg.auth
		}
		return &sellers{Name: cfg.agentURL, liveKey: live, start: func(context.Context, string, ...string) (*agent, error) { return a, nil }, close: func() {}}, nil
	}
	key := cfg.auth
	if key == "" {
		key = randomKey()
	}
	switch cfg.seller {
	case "js":
		name := "the JavaScript SDK's seller (internal/jsinterop/seller.mjs)"
		if cfg.jsCapabilitiesSkill {
			name += " with get_adcp_capabilities in its card"
		}
		start := func(ctx context.Context, _ string, _ ...string) (*agent, error) {
			s, err := jsinterop.StartSellerProcess(ctx, env, jsinterop.SellerOptions{
				APIKey:                key,
				CardCapabilitiesSkill: cfg.jsCapabilitiesSkill,
			})
			if err != nil {
				return nil, err
			}
			return &agent{BaseURL: s.BaseURL, APIKey: key, stop: func() { s.Close() }}, nil
		}
		return &sellers{Name: name, liveKey: key, start: start, close: func() {}}, nil
	case "go":
		specDir := os.Getenv("ADCP_SPEC_DIR")
		if specDir == "" {
			specDir = filepath.Join(cfg.root, "..", "shared", "adcp")
		}
		build, err := jsinterop.BuildExampleSeller(ctx, cfg.root, specDir)
		if errors.Is(err, jsinterop.ErrNoExampleSeller) {
			return nil, fmt.Errorf("%w: use -seller js, or -agent URL (CONFORMANCE_AGENT) for a running seller", err)
		}
		if err != nil {
			return nil, err
		}
		// The live-mode buyer of the runs' test kit.
		live := randomKey()
		if cfg.liveAuth != "" {
			live = cfg.liveAuth
		}
		// HTTPS, as sellers are reached: AdCP 3.1 and later advertise an
		// https brand.json (identity.brand_json_url), where the runner
		// finds the keys the webhooks verify with.
		cert, certKey, err := testCA(cfg.out)
		if err != nil {
			build.Remove()
			return nil, err
		}
		client, err := trusting(cert)
		if err != nil {
			build.Remove()
			return nil, err
		}
		start := func(ctx context.Context, log string, flags ...string) (*agent, error) {
			w, closeLog, err := logFile(log)
			if err != nil {
				return nil, err
			}
			// -sandbox: comply_test_controller, which the storyboards'
			// controller-driven phases need.
			s, err := build.Start(ctx, key, w, append([]string{"-sandbox", "-live-api-key", live, "-tls-cert", cert, "-tls-key", certKey}, flags...)...)
			if err != nil {
				closeLog()
				return nil, err
			}
			a := &agent{BaseURL: s.BaseURL, APIKey: s.APIKey, stop: func() { s.Close(); closeLog() }, client: client}
			return a, ready(ctx, a)
		}
		governance := func(ctx context.Context, log string, flags ...string) (*agent, error) {
			w, closeLog, err := logFile(log)
			if err != nil {
				return nil, err
			}
			// The buyer's key (sync_plans) and the credential the
			// storyboards register for the seller (check_governance).
			s, err := build.Start(ctx, key+","+governanceCredential, w, append([]string{"-governance-agent", "-tls-cert", cert, "-tls-key", certKey}, flags...)...)
			if err != nil {
				closeLog()
				return nil, err
			}
			return &agent{BaseURL: s.BaseURL, APIKey: key, stop: func() { s.Close(); closeLog() }, client: client}, nil
		}
		return &sellers{Name: "examples/seller", liveKey: live, caFile: cert, caKey: certKey, start: start, governance: governance, close: build.Remove}, nil
	}
	return nil, fmt.Errorf("-seller %q: want go or js", cfg.seller)
}

// logFile opens the file a seller logs to: path, else standard error.
func logFile(path string) (io.Writer, func(), error) {
	if path == "" {
		return os.Stderr, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

func randomKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "sk_conformance_" + hex.EncodeToString(b)
}

// trusting is an HTTP client that trusts the PEM certificate certFile
// (and the system's).
func trusting(certFile string) (*http.Client, error) {
	pem, err := os.ReadFile(certFile)
	if err != nil {
		return nil, err
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no PEM certificate", certFile)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: pool}
	return &http.Client{Transport: t, Timeout: 30 * time.Second}, nil
}

// httpClient is the client that calls a.
func (a *agent) httpClient() *http.Client {
	if a.client != nil {
		return a.client
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// ready waits until the agent answers its public agent card (at most 10
// seconds), so a run never starts against a server still coming up.
func ready(ctx context.Context, a *agent) error {
	hc := a.httpClient()
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.BaseURL+"/.well-known/agent-card.json", nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			a.stop()
			return fmt.Errorf("the seller at %s is not answering (%v)", a.BaseURL, err)
		}
		select {
		case <-ctx.Done():
			a.stop()
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
