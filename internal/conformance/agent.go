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
	Name    string
	stop    func()
}

func (a *agent) url(protocol string) string { return a.BaseURL + "/" + protocol }

// startAgent returns the agent cfg names: a running one (cfg.agentURL), the
// JavaScript SDK's seller (cfg.seller "js"), or examples/seller, built and
// started on a free loopback port (cfg.seller "go").
func startAgent(ctx context.Context, cfg *config, env *jsinterop.Env) (*agent, error) {
	if cfg.agentURL != "" {
		return &agent{BaseURL: strings.TrimRight(cfg.agentURL, "/"), APIKey: cfg.auth, Name: cfg.agentURL, stop: func() {}}, nil
	}
	key := cfg.auth
	if key == "" {
		key = randomKey()
	}
	switch cfg.seller {
	case "js":
		s, err := jsinterop.StartSellerProcess(ctx, env, jsinterop.SellerOptions{
			APIKey:                key,
			CardCapabilitiesSkill: cfg.jsCapabilitiesSkill,
		})
		if err != nil {
			return nil, err
		}
		name := "the JavaScript SDK's seller (internal/jsinterop/seller.mjs)"
		if cfg.jsCapabilitiesSkill {
			name += " with get_adcp_capabilities in its card"
		}
		return &agent{BaseURL: s.BaseURL, APIKey: key, Name: name, stop: func() { s.Close() }}, nil
	case "go":
		specDir := os.Getenv("ADCP_SPEC_DIR")
		if specDir == "" {
			specDir = filepath.Join(cfg.root, "..", "shared", "adcp")
		}
		s, err := jsinterop.StartExampleSeller(ctx, cfg.root, specDir, key, os.Stderr)
		if errors.Is(err, jsinterop.ErrNoExampleSeller) {
			return nil, fmt.Errorf("%w: use -seller js, or -agent URL (CONFORMANCE_AGENT) for a running seller", err)
		}
		if err != nil {
			return nil, err
		}
		return &agent{BaseURL: s.BaseURL, APIKey: s.APIKey, Name: "examples/seller", stop: s.Close}, nil
	}
	return nil, fmt.Errorf("-seller %q: want go or js", cfg.seller)
}

func randomKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "sk_conformance_" + hex.EncodeToString(b)
}
