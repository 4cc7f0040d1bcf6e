package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/notifyconfig"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// specdata is the spec cache go generate fills (adcpgen fetch 3.0.26
// --cache ./specdata): the verified 3.0.26 bundle, embedded so the seller
// validates every request and response against the exact schemas offline.
//
//go:embed all:specdata
var specdata embed.FS

// openSchemas opens the embedded 3.0.26 bundle, checked against the sha256
// its cache file is named by.
func openSchemas() (*spec.Tree, error) {
	names, err := fs.Glob(specdata, "specdata/"+adcp.SpecVersion+"/*.tgz")
	if err != nil || len(names) != 1 {
		return nil, fmt.Errorf("want one cached %s bundle in specdata (run go generate), found %d", adcp.SpecVersion, len(names))
	}
	data, err := specdata.ReadFile(names[0])
	if err != nil {
		return nil, err
	}
	sum := strings.TrimSuffix(path.Base(names[0]), ".tgz")
	return spec.OpenBundle(data, adcp.SpecVersion+".tgz", sum, spec.DefaultBundleLimits)
}

// config is what main's flags set.
type config struct {
	// BaseURL is where the agent is reachable (http://ADDR): the A2A
	// agent card names BaseURL/a2a.
	BaseURL string
	// APIKey is the buyers' bearer key.
	APIKey string
	// LiveAPIKey, when set, is the key of a second buyer whose accounts
	// are live (production) accounts: with Sandbox, comply_test_controller
	// refuses it FORBIDDEN, as AdCP's controller gate requires
	// (comply_controller_mode_gate). Everything else serves it as any
	// buyer.
	LiveAPIKey string
	// OAuthClientID and OAuthClientSecret are the buyers' OAuth client
	// credentials at the seller's own authorization server (issuer.go),
	// the other way in: the tokens stand for the same principal as
	// APIKey.
	OAuthClientID, OAuthClientSecret string
	// WebhookLoopback lets buyers register http:// loopback webhook URLs
	// (a seller running on loopback, for local buyers and test runners).
	WebhookLoopback bool
	// WebhookLoopbackOnly posts webhooks to loopback hosts only, refusing
	// any other before a DNS lookup: tests and compliance runs, whose
	// storyboards name public example hosts, stay on the machine.
	WebhookLoopbackOnly bool
	// Sandbox serves comply_test_controller (sandbox.go), for the
	// compliance runner; never in production.
	Sandbox bool
	// Store keeps idempotency records and tasks; nil keeps them in memory
	// (one replica). Replicas sharing a store (pgstore) serve the same
	// buyers: a retry on another replica replays, a task started on one is
	// finished by whichever the buyer's poll reaches.
	Store sellerstore.Store
	// Signing is what the seller signs webhooks with and whose request
	// signatures it verifies (signing.go).
	Signing signingConfig
	// Governance says how governance agents are reached (governance.go).
	Governance governanceConfig
	Logger     *slog.Logger
	// Now is the seller's clock; nil is time.Now. A sandbox may run on a
	// compliance runner's clock (-clock): request signatures carry their
	// signer's time, and the storyboards' flight dates are fixed.
	Now func() time.Time
	// Observer is told of every call, idempotency claim, task, store call,
	// webhook and signature (telemetry.go: OpenTelemetry); nil observes
	// nothing.
	Observer observe.Observer
}

// principal is the buyer this seller knows, by API key or OAuth client;
// livePrincipal the one of LiveAPIKey.
const (
	principal     = "buyer"
	livePrincipal = "live-buyer"
)

// agent is the running seller: the handler serving /mcp, /a2a and the
// agent card, and the task manager to drain on shutdown.
type agent struct {
	handler http.Handler
	store   sellerstore.Store
	tasks   *sellertask.Manager
	sales   *sales
	oauth   *issuer
}

// newAgent builds the seller: the typed handlers of sales, strict request
// and response validation against 3.0.26, API-key authentication,
// idempotent create_media_buy, async tasks with webhooks and the status
// tools, served over MCP and A2A.
func newAgent(cfg config) (*agent, error) {
	tree, err := openSchemas()
	if err != nil {
		return nil, err
	}
	validator, err := validate.New(tree, validate.Options{})
	if err != nil {
		return nil, err
	}
	schemas, err := servedProductSchemas(tree, validator)
	if err != nil {
		return nil, err
	}
	cat, err := loadCatalog(cfg.Sandbox, schemas)
	if err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	store := cfg.Store
	if store == nil {
		store = sellerstore.NewMemory(clock(cfg.Now))
	}
	gov, err := newGovernance(cfg.BaseURL+"/mcp", cfg.Governance)
	if err != nil {
		return nil, err
	}
	// With PostgreSQL the buys are in the store's database, booked in the
	// transaction that records the answer naming them (book.go).
	var buys book = newMemoryBook()
	if pg, ok := store.(*pgstore.Store); ok {
		if buys, err = newPGBook(context.Background(), pg); err != nil {
			return nil, fmt.Errorf("media buys table: %w", err)
		}
	}
	s := newSales(cat, buys, cfg.Sandbox, cfg.BaseURL, gov, cfg.Logger, cfg.Now)
	signed, err := newSigningSetup(cfg, tree, store)
	if err != nil {
		return nil, err
	}
	layer := idempotency.New(adcp.Spec(), store, idempotency.Options{Validator: validator, Logger: cfg.Logger, Observer: cfg.Observer})
	// Webhooks are signed with RFC 9421 (HMAC when the buyer asks for it).
	sender := webhook.NewSender(webhook.SenderOptions{
		Policy:       untrusted.PushURLPolicy{AllowLoopback: cfg.WebhookLoopback || cfg.WebhookLoopbackOnly},
		LoopbackOnly: cfg.WebhookLoopbackOnly,
		Signer:       signed.webhookSigner,
		Now:          cfg.Now,
		Observer:     cfg.Observer,
	})
	// Account-level subscribers prove control of their endpoint before
	// they are activated (a signed webhook.challenge), except in a test
	// run posting to loopback hosts only, whose runner's receiver is the
	// run's own.
	s.webhookURLs = untrusted.PushURLPolicy{AllowLoopback: cfg.WebhookLoopback || cfg.WebhookLoopbackOnly}
	s.tags = &tagScanner{client: untrusted.NewHTTPClient(untrusted.ClientOptions{Policy: s.webhookURLs, LoopbackOnly: cfg.WebhookLoopbackOnly})}
	var prove func(context.Context, string, notifyconfig.Config) error
	if !cfg.WebhookLoopbackOnly {
		prove = (&notifyconfig.Challenger{Scope: notifyconfig.AccountLevel, Signer: signed.webhookSigner, AgentURL: cfg.BaseURL + "/mcp", URLs: s.webhookURLs}).Prove
	}
	s.notify = notifyconfig.New(notifyconfig.Options{Prove: prove})
	webhookSigning, err := webhookCapability(sender)
	if err != nil {
		return nil, err
	}
	tasks := sellertask.New(adcp.Spec(), sellertask.Options{
		Store:    store,
		Sender:   sender,
		Logger:   cfg.Logger,
		Refresh:  s.completeOnPoll,
		Now:      cfg.Now,
		Observer: cfg.Observer,
	})
	oauth, err := newIssuer(cfg.BaseURL, []string{"/mcp", "/a2a"}, cfg.OAuthClientID, cfg.OAuthClientSecret, principal, cfg.Now)
	if err != nil {
		return nil, err
	}
	srv, err := seller.New(adcp.Spec(), seller.Options{
		Logger:            cfg.Logger,
		Schemas:           tree,
		ValidateResponses: true,
		// OAuth first: its challenge names the protected-resource
		// metadata, where OAuth clients find the issuer.
		Authenticator: seller.FirstOf(
			mcpserver.OAuth(mcpserver.OAuthOptions{Verifier: oauth.verify, ResourceMetadataURLFor: oauth.metadataURL}),
			seller.APIKeys(cfg.BaseURL, apiKeys(cfg)),
		),
		Tasks: tasks,
		// No webhook for a synchronous answer: webhooks.mdx's trigger rule
		// posts one only for a task whose first answer was not terminal.
		Middleware:     []seller.Middleware{sandboxSession(s), layer.Middleware()},
		Capabilities:   capabilities(layer, webhookSigning),
		SignedRequests: signed.requests,
		BrandJSONURL:   brandJSONURL(cfg.BaseURL),
		// A buyer that declares only adcp_major_version predates
		// release-precision negotiation: it gets the 3.0 answers it was
		// written for, not the later releases' (releases.go).
		MajorOnlyToDefault: true,
		// A call that declares no release at all (neither member) pins
		// nothing: it is answered in the latest release.
		UndeclaredRelease: "3.1",
		Now:               cfg.Now,
		Observer:          cfg.Observer,
	})
	if err != nil {
		return nil, err
	}
	s.srv = srv
	s.serve(srv)
	if cfg.Sandbox {
		if err := newController(srv, s); err != nil {
			return nil, err
		}
	}
	tasks.ServeStatusTools(srv)
	// The later releases, through these handlers (releases.go).
	if err := addReleases(srv, releaseConfig{store: store, tasks: tasks, logger: cfg.Logger, sales: s, brandJSONURL: brandJSONURL(cfg.BaseURL), now: cfg.Now, signed: signed.requests,
		capabilities: func(l *idempotency.Layer) json.RawMessage { return capabilities(l, webhookSigning) }}); err != nil {
		return nil, err
	}

	mcp, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		return nil, err
	}
	// Answers in the A2A task states the protocol gives them (errors in
	// failed tasks, submitted in submitted ones), except to buyers speaking
	// the legacy dialect (DataPart "parameters": the JavaScript SDK 6.11),
	// which read payloads only from completed tasks.
	a2aOpts := a2aserver.Options{URL: cfg.BaseURL + "/a2a", Name: "adcpgen example seller", TaskStates: a2aserver.TaskStatesFollowDialect, Now: cfg.Now}
	card := a2aserver.NewCardHandler(srv, a2aOpts)
	mux := http.NewServeMux()
	oauth.routes(mux)
	mux.Handle("/mcp", jsonAccept(mcp))
	mux.Handle("/a2a", a2aserver.NewHandler(srv, a2aOpts))
	// Buyers look for the card at the root and under the A2A endpoint.
	mux.Handle("GET "+a2aserver.CardPath, card)
	mux.Handle("GET /a2a"+a2aserver.CardPath, card)
	// Where counterparties find the key its webhooks verify with.
	mux.Handle("GET /.well-known/brand.json", signed.identity)
	mux.Handle("GET /.well-known/adcp-signing-keys.json", signed.identity)
	if signed.grading != nil {
		// The signed-requests runner posts to <agent URL>/adcp/<operation>
		// (its raw transport), under either endpoint; /signing/<posture>/
		// grades the vectors of a content-digest posture of its own.
		either := gradingHandler(signed.grading[signing.DigestEither])
		mux.Handle("/mcp/adcp/", either)
		mux.Handle("/a2a/adcp/", either)
		for posture, srv := range signed.grading {
			mux.Handle("/signing/"+string(posture)+"/adcp/", gradingHandler(srv))
		}
	}
	mux.HandleFunc("GET /preview/{id}", s.servePreview)
	mux.HandleFunc("GET /built/{file}", serveBuilt)
	return &agent{handler: mux, store: store, tasks: tasks, sales: s, oauth: oauth}, nil
}

// apiKeys maps the buyers' keys to their principals.
func apiKeys(cfg config) map[string]string {
	keys := map[string]string{cfg.APIKey: principal}
	if cfg.LiveAPIKey != "" {
		keys[cfg.LiveAPIKey] = livePrincipal
	}
	return keys
}

// capabilities is the base of the automatic get_adcp_capabilities answer:
// the idempotency layer's replay window, what a media-buy seller must
// declare beside it, and how its webhooks are signed; the server adds
// major_versions, supported_protocols and request_signing. Two
// declarations of AdCP 3.1 are made on 3.0 too (3.0's media_buy block
// admits more members), as the compliance storyboards gate on them:
// supports_proposals (briefs get proposals, finalize commits them, a buy
// accepts one) and creative_approval_mode "auto_approve" (a synced
// creative is approved at once, so no review holds a buy). The creative
// block says the seller hosts a creative library (sync_creatives,
// list_creatives), bills no creative work through AdCP and evaluates no
// creatives for buyers (3.1's bills_through_adcp and supports_evaluator).
func capabilities(layer *idempotency.Layer, webhookSigning json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"adcp":{"idempotency":`)
	b.Write(layer.Capabilities())
	b.WriteString(`},"account":{"supported_billing":`)
	supported, _ := json.Marshal(billingOffer.Supported)
	b.Write(supported)
	b.WriteString(`},`)
	b.WriteString(`"media_buy":{"supported_pricing_models":["cpm"],"supports_proposals":true,"creative_approval_mode":"auto_approve"},`)
	b.WriteString(`"creative":{"has_creative_library":true,"bills_through_adcp":false,"supports_evaluator":false},`)
	b.WriteString(`"webhook_signing":`)
	b.Write(webhookSigning)
	b.WriteString(`}`)
	return b.Bytes()
}

// jsonAccept lets MCP clients that accept only application/json (raw
// JSON-RPC probes, such as the compliance runner's) reach go-sdk's
// handler, which wants text/event-stream listed too: with
// JSONResponse set it answers with JSON either way.
func jsonAccept(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			accept := r.Header.Get("Accept")
			if !strings.Contains(accept, "text/event-stream") {
				if accept == "" {
					accept = "application/json"
				}
				r.Header.Set("Accept", accept+", text/event-stream")
			}
		}
		next.ServeHTTP(w, r)
	})
}

// clock is a clock function as a sellerstore.Clock.
type clock func() time.Time

// Now is the time on the clock.
func (c clock) Now() time.Time { return c() }

// brandJSONURL is the brand.json the agent advertises (from 3.1, as
// identity.brand_json_url), which must be https: none over plain http,
// though /.well-known/brand.json is served either way.
func brandJSONURL(base string) string {
	if !strings.HasPrefix(base, "https://") {
		return ""
	}
	return base + "/.well-known/brand.json"
}
