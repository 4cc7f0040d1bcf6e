package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"

	"example.com/versioned/adcp"

	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// specdata is the version's schema tree, copied there by go generate
// (gen.go) and embedded: a version published only as a tree has no bundle
// to embed, and //go:embed reads only files inside the module. "all:"
// keeps the files whose names begin with _ (formats/canonical/_base.json),
// which a plain pattern leaves out.
//
//go:embed all:specdata
var specdata embed.FS

// openSchemas opens the embedded tree, checked to be the generated
// package's version.
func openSchemas() (*spec.Tree, error) {
	sub, err := fs.Sub(specdata, "specdata")
	if err != nil {
		return nil, err
	}
	tree, err := spec.OpenFS(sub, "specdata", spec.KindEmbedded)
	if err != nil {
		return nil, fmt.Errorf("the embedded schema tree (run go generate): %w", err)
	}
	if tree.Version != adcp.SpecVersion {
		return nil, fmt.Errorf("the embedded schema tree is version %q, the generated package %q: run go generate again", tree.Version, adcp.SpecVersion)
	}
	return tree, nil
}

// config is what main's flags set.
type config struct {
	BaseURL string
	APIKey  string
	// Store keeps tasks and idempotency records; replicas sharing one
	// (PostgreSQL) serve the same buyers.
	Store   sellerstore.Store
	Replica string
	Logger  *slog.Logger
}

// principal is the one buyer this seller knows.
const principal = "buyer"

// agent is the running seller.
type agent struct {
	handler http.Handler
	tasks   *sellertask.Manager
}

// newAgent builds the seller: typed handlers, every request and response
// checked against the version's schemas, API-key authentication,
// idempotent create_media_buy and async tasks on the store, the status
// tools, over stateless MCP and A2A.
func newAgent(cfg config) (*agent, error) {
	tree, err := openSchemas()
	if err != nil {
		return nil, err
	}
	validator, err := validate.New(tree, validate.Options{})
	if err != nil {
		return nil, err
	}
	catalog, err := loadCatalog()
	if err != nil {
		return nil, err
	}
	s := &sales{catalog: catalog, replica: cfg.Replica}
	layer := idempotency.New(adcp.Spec(), cfg.Store, idempotency.Options{Validator: validator, Logger: cfg.Logger})
	tasks := sellertask.New(adcp.Spec(), sellertask.Options{Store: cfg.Store, Logger: cfg.Logger, Refresh: s.completeOnPoll})
	srv, err := seller.New(adcp.Spec(), seller.Options{
		Logger:            cfg.Logger,
		Schemas:           tree,
		ValidateResponses: true,
		Authenticator:     seller.APIKeys(cfg.BaseURL, map[string]string{cfg.APIKey: principal}),
		Tasks:             tasks,
		Middleware:        []seller.Middleware{layer.Middleware()},
		Capabilities: json.RawMessage(`{"adcp":{"idempotency":` + string(layer.Capabilities()) + `},` +
			`"account":{"supported_billing":["operator"]},"media_buy":{"supported_pricing_models":["cpm"]}}`),
	})
	if err != nil {
		return nil, err
	}
	s.srv = srv
	seller.Handle(srv, adcp.Tools.GetProducts, s.getProducts)
	seller.Handle(srv, adcp.Tools.CreateMediaBuy, s.createMediaBuy)
	tasks.ServeStatusTools(srv)

	// Stateless MCP: any replica answers any request.
	mcp, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		return nil, err
	}
	a2aOpts := a2aserver.Options{URL: cfg.BaseURL + "/a2a", Name: "adcpgen versioned example seller"}
	card := a2aserver.NewCardHandler(srv, a2aOpts)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp)
	mux.Handle("/a2a", a2aserver.NewHandler(srv, a2aOpts))
	mux.Handle("GET "+a2aserver.CardPath, card)
	mux.Handle("GET /a2a"+a2aserver.CardPath, card)
	return &agent{handler: mux, tasks: tasks}, nil
}
