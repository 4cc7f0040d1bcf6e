package examples

import (
	"context"
	"net"
	"net/http"
	"time"

	adcp "github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerhttp"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// Mux is docs/seller.md's seller: one server, schema-validated and
// authenticated, on MCP and A2A at once. keys maps API keys to principals;
// find answers get_products for a buyer ("" for anonymous discovery).
func Mux(tree *spec.Tree, keys map[string]string, find func(buyer string, req *adcp.GetProductsRequest) *adcp.GetProductsResponse) (*http.ServeMux, error) {
	// snippet: serve
	srv, err := seller.New(adcp.Spec(), seller.Options{Schemas: tree, Authenticator: seller.APIKeys("https://seller.example", keys)})
	if err != nil {
		return nil, err
	}
	seller.HandleSync(srv, adcp.Tools.GetProducts, func(ctx context.Context, req *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
		p, _ := seller.PrincipalFrom(ctx) // the zero Principal for anonymous discovery
		return find(p.ID, req), nil       // the buyer's negotiated rates, or the public rate card
	})
	mcpHandler, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{})
	if err != nil {
		return nil, err
	}
	opts := a2aserver.Options{URL: "https://seller.example/a2a"}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpHandler)
	mux.Handle("/a2a", a2aserver.NewHandler(srv, opts))
	mux.Handle(a2aserver.CardPath, a2aserver.NewCardHandler(srv, opts))
	// end snippet
	return mux, nil
}

// Run is docs/seller.md's server: mux served on ln with the limits a
// public endpoint needs until ctx ends (SIGTERM), then shut down letting
// the calls in flight finish.
func Run(ctx context.Context, ln net.Listener, mux http.Handler) error {
	// snippet: run
	hs := sellerhttp.New("", mux, sellerhttp.Options{}) // header, body, write and idle limits
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done(): // signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return hs.Shutdown(shutdown) // calls in flight finish, new connections are refused
	// end snippet
}
