package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

// agent is the seller under test: MCP at BaseURL/mcp, A2A at BaseURL/a2a
// (with its agent card under /a2a too, where the runner looks for it).
type agent struct {
	BaseURL string
	APIKey  string
	stop    func()
}

func (a *agent) url(protocol string) string { return a.BaseURL + "/" + protocol }

// sellers starts the seller under test for each storyboard run: a fresh
// one each time when this program runs it, as a sandbox isolated per run
// (the storyboards use fixed idempotency keys and fixed forced task ids, so
// a second run against the same seller would replay or conflict with the
// first), or the running one -agent names.
type sellers struct {
	// Name says which seller it is.
	Name  string
	start func(ctx context.Context) (*agent, error)
	close func()
}

// newSellers prepares the seller cfg names: a running one (cfg.agentURL),
// the JavaScript SDK's seller (cfg.seller "js"), or examples/seller, built
// once and started on a free loopback port (cfg.seller "go").
func newSellers(ctx context.Context, cfg *config, env *jsinterop.Env) (*sellers, error) {
	if cfg.agentURL != "" {
		a := &agent{BaseURL: strings.TrimRight(cfg.agentURL, "/"), APIKey: cfg.auth, stop: func() {}}
		return &sellers{Name: cfg.agentURL, start: func(context.Context) (*agent, error) { return a, nil }, close: func() {}}, nil
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
		start := func(ctx context.Context) (*agent, error) {
			s, err := jsinterop.StartSellerProcess(ctx, env, jsinterop.SellerOptions{
				APIKey:                key,
				CardCapabilitiesSkill: cfg.jsCapabilitiesSkill,
			})
			if err != nil {
				return nil, err
			}
			return &agent{BaseURL: s.BaseURL, APIKey: key, stop: func() { s.Close() }}, nil
		}
		return &sellers{Name: name, start: start, close: func() {}}, nil
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
		start := func(ctx context.Context) (*agent, error) {
			// -sandbox: comply_test_controller, which the storyboards'
			// controller-driven phases need.
			s, err := build.Start(ctx, key, os.Stderr, "-sandbox")
			if err != nil {
				return nil, err
			}
			return &agent{BaseURL: s.BaseURL, APIKey: s.APIKey, stop: s.Close}, nil
		}
		return &sellers{Name: "examples/seller", start: start, close: build.Remove}, nil
	}
	return nil, fmt.Errorf("-seller %q: want go or js", cfg.seller)
}

func randomKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "sk_conformance_" + hex.EncodeToString(b)
}
