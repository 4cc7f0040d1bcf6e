package main

import (
	"crypto"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/replay"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// signingConfig is what main's flags say about RFC 9421 signatures.
type signingConfig struct {
	// KeyFile is the seller's private JWK (adcpgen keygen --adcp-use
	// webhook-signing: AdCP 3.0 receivers accept only that purpose on a
	// webhook key); it signs webhooks and its public part is published at
	// /.well-known/adcp-signing-keys.json (/.well-known/jwks.json is the
	// OAuth issuer's), the jwks_uri of brand.json's entries. "" generates
	// one at start-up.
	KeyFile string
	// BuyerJWKS is a JWKS file of the buyers whose request signatures the
	// seller verifies (counterparties onboarded with their keys); "" none.
	BuyerJWKS string
	// GradingReplayCap is a sandbox's per-keyid replay cap, on its
	// endpoints and its grading endpoints: the signed-requests runner
	// fills it to provoke request_signature_rate_abuse.
	GradingReplayCap int
}

// Request-signing policies: the operations the seller verifies signatures
// for, and, in a sandbox, the one it requires them on from callers with no
// other credential (the runner's vector 001). AdCP 3.0 has no protocol
// method lists.
var (
	signedOperations   = []string{"create_media_buy", "update_media_buy", "sync_creatives"}
	sandboxRequiredFor = []string{"create_media_buy"}
)

// signingSetup is the seller's signing: its webhook signer, the identity
// it publishes, the request verification of its MCP and A2A endpoints, and
// in a sandbox the grading endpoints of the signed-requests runner.
type signingSetup struct {
	webhookSigner *signing.Signer
	identity      http.Handler
	// requests verifies the endpoints' request signatures; nil when no
	// buyer's key is known.
	requests *seller.SignedRequests
	// grading serves the runner's per-operation endpoints by digest
	// posture (sandbox only).
	grading map[signing.DigestPolicy]*seller.Server
}

// newSigningSetup builds it: cfg.BaseURL names the agent, tree is the
// embedded 3.0.26 bundle (whose compliance material holds the runner's
// keys), store the replay store's home when it is PostgreSQL.
func newSigningSetup(cfg config, tree *spec.Tree, store sellerstore.Store) (*signingSetup, error) {
	key, jwk, err := sellerKey(cfg.Signing.KeyFile)
	if err != nil {
		return nil, err
	}
	wp, err := signing.WebhookProfile(adcp.SpecVersion)
	if err != nil {
		return nil, err
	}
	s := &signingSetup{}
	if s.webhookSigner, err = signing.NewSigner(signing.SignerOptions{Profile: wp, KeyID: jwk.KeyID, Key: key, Now: cfg.Now}); err != nil {
		return nil, fmt.Errorf("-signing-key: %w", err)
	}
	id := &seller.Identity{
		BrandJSONURL: cfg.BaseURL + "/.well-known/brand.json",
		Keys:         &keys.JWKS{Keys: []*keys.JWK{jwk}},
		Agents: []seller.IdentityAgent{
			{Type: "sales", URL: cfg.BaseURL + "/mcp", ID: "example_seller_mcp", JWKSURI: cfg.BaseURL + "/.well-known/adcp-signing-keys.json"},
			{Type: "sales", URL: cfg.BaseURL + "/a2a", ID: "example_seller_a2a", JWKSURI: cfg.BaseURL + "/.well-known/adcp-signing-keys.json"},
		},
	}
	if s.identity, err = id.Handler(); err != nil {
		return nil, err
	}

	var sources keys.Resolvers
	if cfg.Signing.BuyerJWKS != "" {
		set, err := readJWKS(cfg.Signing.BuyerJWKS)
		if err != nil {
			return nil, fmt.Errorf("-buyer-jwks: %w", err)
		}
		sources = append(sources, keys.Static{Set: set})
	}
	var revoked revocation.Fixed
	if cfg.Sandbox {
		runner, err := runnerKeys(tree)
		if err != nil {
			return nil, err
		}
		sources = append(sources, keys.Static{Set: runner, AgentURL: "https://runner.test.adcontextprotocol.org"})
		// test-kits/signed-requests-runner.yaml: the revoked keyid.
		revoked = revocation.Fixed{"test-revoked-2026": true}
	}
	if len(sources) == 0 {
		return s, nil
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	var replay replay.Ledger
	if pg, ok := store.(*pgstore.Store); ok {
		replay = pg.Nonces() // replicas share it
	}
	s.requests = &seller.SignedRequests{
		Policy:     signing.OperationPolicy{SupportedFor: signedOperations},
		Keys:       sources,
		Replay:     replay,
		Revocation: revoked,
		Scheme:     u.Scheme,
	}
	if !cfg.Sandbox {
		return s, nil
	}
	// The storyboards register HMAC webhooks over a bearer on these
	// endpoints; the grading endpoints below hold the rule.
	s.requests.Policy.RequiredFor = sandboxRequiredFor
	s.requests.AllowUnsignedWebhookAuthentication = true
	s.requests.ReplayLimit = cfg.Signing.GradingReplayCap
	s.grading = map[signing.DigestPolicy]*seller.Server{}
	for _, posture := range []signing.DigestPolicy{signing.DigestEither, signing.DigestRequired, signing.DigestForbidden} {
		srv, err := seller.New(adcp.Spec(), seller.Options{Logger: cfg.Logger, Now: cfg.Now, SignedRequests: &seller.SignedRequests{
			Policy:              signing.OperationPolicy{SupportedFor: signedOperations, RequiredFor: sandboxRequiredFor},
			CoversContentDigest: posture,
			Keys:                sources,
			ReplayLimit:         cfg.Signing.GradingReplayCap,
			Revocation:          revoked,
			Scheme:              u.Scheme,
		}})
		if err != nil {
			return nil, err
		}
		s.grading[posture] = srv
	}
	return s, nil
}

// sellerKey reads the seller's private JWK, or makes one: an AdCP 3.0
// webhook key (adcp_use "webhook-signing").
func sellerKey(file string) (crypto.Signer, *keys.JWK, error) {
	if file == "" {
		key, jwk, err := keys.GenerateKey(keys.Ed25519, "example-seller-"+randomHex()[:8], nil)
		if err != nil {
			return nil, nil, err
		}
		jwk.AdCPUse = keys.UseWebhookSigning
		return key, jwk, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("-signing-key: %w", err)
	}
	key, jwk, err := keys.ParsePrivateJWK(data)
	if err != nil {
		return nil, nil, fmt.Errorf("-signing-key %s: %w", file, err)
	}
	if jwk.KeyID == "" {
		return nil, nil, fmt.Errorf("-signing-key %s: the JWK has no kid", file)
	}
	return key, jwk, nil
}

func readJWKS(file string) (*keys.JWKS, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return keys.ParseJWKS(data)
}

// runnerKeys are the signed-requests runner's public keys, from the
// bundle's compliance test vectors (keys.json: the private parts there are
// the runner's, never read here).
func runnerKeys(tree *spec.Tree) (*keys.JWKS, error) {
	if tree.Bundle == nil {
		return nil, fmt.Errorf("the spec tree is not a bundle: no compliance test vectors for the sandbox's runner keys")
	}
	const name = "compliance/test-vectors/request-signing/keys.json"
	data, err := fs.ReadFile(tree.Bundle, name)
	if err != nil {
		return nil, fmt.Errorf("sandbox: the runner's keys: %w", err)
	}
	set, err := keys.ParseJWKS(data)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %s: %w", name, err)
	}
	return set, nil
}

// gradingHandler serves the signed-requests runner's per-operation
// endpoints (test-kits/signed-requests-runner.yaml: a dedicated grading
// endpoint, endpoint_scope sandbox): POST <mount>/adcp/<path>/<operation>,
// the operation the last path segment, verified by the posture's server
// exactly as the MCP and A2A gates verify (seller.Server.AdmitOperation),
// then answered 200 without running anything: the runner's bodies are
// fragments, and a grading request is discarded once verified.
func gradingHandler(srv *seller.Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, ok := srv.ReadRPCBody(w, r)
		if !ok {
			return
		}
		op := path.Base(strings.TrimSuffix(r.URL.EscapedPath(), "/"))
		if op, err := url.PathUnescape(op); err == nil {
			adm, fail := srv.AdmitOperation(r, body, op)
			if fail != nil {
				if fail.Challenge != "" {
					w.Header().Set("WWW-Authenticate", fail.Challenge)
				}
				writeJSON(w, fail.Status, map[string]any{"error": fail.Error.Code, "message": fail.Error.Message})
				return
			}
			out := map[string]any{"status": "accepted", "operation": op, "note": "grading endpoint: verified, not executed"}
			if adm.Signer != nil {
				out["verified_signer"] = map[string]string{"keyid": adm.Signer.KeyID, "agent_url": adm.Signer.AgentURL}
			}
			writeJSON(w, http.StatusOK, out)
			return
		}
		http.Error(w, "bad path", http.StatusBadRequest)
	})
}

// webhookCapability is the webhook_signing block the seller advertises.
func webhookCapability(sender interface {
	Capability(string) (json.RawMessage, error)
}) (json.RawMessage, error) {
	block, err := sender.Capability(adcp.SpecVersion)
	if err != nil {
		return nil, err
	}
	if err := wire.Valid(block); err != nil {
		return nil, err
	}
	return block, nil
}
