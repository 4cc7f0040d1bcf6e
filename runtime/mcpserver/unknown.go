package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// unknownTools answers tools/call of a tool the seller does not serve as
// the A2A transport answers an unknown skill: with the AdCP error Serve
// gives it (UNSUPPORTED_FEATURE, the request's context echoed) in a tool
// result, instead of go-sdk's JSON-RPC -32602 "unknown tool". Buyers (and
// the official conformance fuzzer, whose oracle accepts a well-formed AdCP
// error and fails a transport error) can then tell a tool this agent lacks
// from a broken call, whichever transport they use.
func unknownTools(srv *seller.Server, opts Options) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && !servedInAny(srv, r.Params.Name) {
					return toolHandler(srv, r.Params.Name, opts)(ctx, r)
				}
			}
			return next(ctx, method, req)
		}
	}
}

// servedInAny reports a tool one of srv's releases serves.
func servedInAny(srv *seller.Server, tool string) bool {
	for _, r := range srv.Releases() {
		if r.Serves(tool) {
			return true
		}
	}
	return false
}
