package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// ServeStdio serves srv over MCP on standard input and output until ctx
// ends or the client disconnects. There is no HTTP, so no credentials:
// calls run as opts.LocalPrincipal.
func ServeStdio(ctx context.Context, srv *seller.Server, opts Options) error {
	server, err := NewServer(srv, opts)
	if err != nil {
		return err
	}
	return server.Run(ctx, &mcp.StdioTransport{})
}
