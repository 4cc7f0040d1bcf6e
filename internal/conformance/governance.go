package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// governanceStoryboards are the storyboards that need a governance agent
// beside the seller: the runner sends their sync_plans to it and the
// seller registers it with sync_governance.
var governanceStoryboards = []string{
	"media_buy_seller/governance_approved",
	"media_buy_seller/governance_conditions",
	"media_buy_seller/governance_denied",
	"media_buy_seller/governance_denied_recovery",
}

// governanceRun is the governance storyboards' run name.
const governanceRun = "(governance storyboards, routed)"

// governanceCredential is what the storyboards register as the governance
// agent's credentials (sync_governance), so the seller calls the agent
// with it.
const governanceCredential = "gov-token-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

// testCA writes a self-signed certificate for 127.0.0.1 and its key into
// dir: the sellers and the governance agent serve TLS with it (AdCP wants
// https brand.json and governance agent URLs), trusted by the seller
// (-governance-ca), this program and the runner (NODE_EXTRA_CA_CERTS)
// alone.
func testCA(dir string) (certFile, keyFile string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "adcpgen conformance governance agent"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", err
	}
	certFile, keyFile = filepath.Join(dir, "agent.crt"), filepath.Join(dir, "agent.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return "", "", err
	}
	return certFile, keyFile, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
}

// runGovernanceStoryboards starts a governance agent and a seller that
// trusts it, both on TLS with the sellers' certificate, and runs the
// governance storyboards of spec's bundle against both.
func runGovernanceStoryboards(ctx context.Context, cfg *config, k *kit, src *sellers, spec runSpec) (*result, error) {
	log := filepath.Join(spec.outDir, spec.bundle+"-"+spec.protocol+"-governance")
	gov, err := src.governance(ctx, log+".governance-agent.log", sellerClock(cfg, spec.clock)...)
	if err != nil {
		return nil, err
	}
	defer gov.stop()
	s, err := src.start(ctx, log+".seller.log", append([]string{"-governance-loopback", "only", "-governance-ca", src.caFile}, sellerClock(cfg, spec.clock)...)...)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	runCtx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	return runGovernance(runCtx, k, s, gov, spec), ctx.Err()
}

// routedScript runs storyboards routed to several agents; it runs in the
// kit's folder, where it finds the kit's @adcp/sdk.
const routedScript = "routed.mjs"

// runGovernance runs the governance storyboards of spec's bundle over
// spec's protocol with multi-agent routing, as `adcp storyboard run
// --agents-map` does: the governance protocol's tools (sync_plans) to the
// governance agent (over MCP, the only transport it serves), everything
// else to the seller over the protocol (under "sales", the key 3.1's
// storyboards route seller steps to with `agent: sales`), and the agent's URL in the run
// context ($context.governance_agent_url, for sync_governance). The
// runner does not seed fixtures in routed runs; routed.mjs seeds them
// through the seller's controller.
func runGovernance(ctx context.Context, k *kit, seller, gov *agent, spec runSpec) *result {
	res := &result{Bundle: spec.bundle, Protocol: spec.protocol, Storyboard: governanceRun, Kind: kindGovernance}
	if err := copyFile(filepath.Join(k.Scripts, routedScript), filepath.Join(k.Dir, routedScript)); err != nil {
		res.Err = err
		return res
	}
	opts, err := json.Marshal(map[string]any{
		"agents":        map[string]any{"sales": map[string]string{"url": seller.url(spec.protocol)}, "governance": map[string]string{"url": gov.BaseURL + "/mcp", "transport": "mcp"}},
		"default_agent": "sales",
		"seed_mcp":      seller.BaseURL + "/mcp",
		"protocol":      spec.protocol,
		"version":       spec.bundle,
		"auth":          seller.APIKey,
		"context":       map[string]string{"governance_agent_url": gov.BaseURL + "/mcp"},
		"storyboards":   governanceStoryboards,
	})
	if err != nil {
		res.Err = err
		return res
	}
	stdout, stderr, elapsed, runErr := node(ctx, k, spec.clock, nil, []string{routedScript, string(opts)})
	res.Duration = elapsed
	return res.read(ctx, spec.outDir, spec.bundle+"-"+spec.protocol+"-governance", stdout, stderr, runErr)
}
