package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// unservedTool is the tool every call of a tool the seller does not serve
// is routed to (a name no AdCP tool has, left out of tools/list): go-sdk
// completes its results as any tool's, with the resultType that MCP
// 2026-07-28 clients require ("complete"), which a result answered from a
// middleware would lack.
const unservedTool = "adcpgen_unserved_tool"

// unservedKey carries the name of the tool a call asked for to the
// unserved tool's handler.
type unservedKey struct{}

// unknownTools answers tools/call of a tool the seller does not serve as
// the A2A transport answers an unknown skill: with the AdCP error Serve
// gives it (UNSUPPORTED_FEATURE, the request's context echoed) in a tool
// result, instead of go-sdk's JSON-RPC -32602 "unknown tool". Buyers (and
// the official conformance fuzzer, whose oracle accepts a well-formed AdCP
// error and fails a transport error) can then tell a tool this agent lacks
// from a broken call, whichever transport they use. The call goes on to
// the unserved tool under the name asked for; tools/list leaves that tool
// out.
func unknownTools(srv *seller.Server) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/call":
				if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && !servedInAny(srv, r.Params.Name) {
					params := *r.Params
					params.Name = unservedTool
					routed := *r
					routed.Params = &params
					return next(context.WithValue(ctx, unservedKey{}, r.Params.Name), method, &routed)
				}
			case "tools/list":
				res, err := next(ctx, method, req)
				if l, ok := res.(*mcp.ListToolsResult); ok && err == nil {
					tools := make([]*mcp.Tool, 0, len(l.Tools))
					for _, t := range l.Tools {
						if t.Name != unservedTool {
							tools = append(tools, t)
						}
					}
					l.Tools = tools
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	}
}

// addUnservedTool registers the tool unknownTools routes calls to.
func addUnservedTool(server *mcp.Server, srv *seller.Server, opts Options) {
	server.AddTool(&mcp.Tool{Name: unservedTool, InputSchema: minimalInputSchema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			name, _ := ctx.Value(unservedKey{}).(string)
			if name == "" { // called by its own name
				name = unservedTool
			}
			return toolHandler(srv, name, opts)(ctx, req)
		})
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
