package mcpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Session is a buyer.Transport: the typed client (runtime/buyer) calls
// tools through it and reads the seller's exact bytes.
var (
	_ buyer.Transport  = (*Session)(nil)
	_ buyer.ToolLister = (*Session)(nil)
)

// Protocol is buyer.MCP.
func (c *Session) Protocol() buyer.Protocol { return buyer.MCP }

// CallTool calls call.Tool with call.Args (tools/call) and returns the
// seller's JSON-RPC response as it arrived. MCP carries the conversation in
// the arguments, so call.ContextID and call.TaskID are not sent. A call
// that got no response fails with a *buyer.TransportError saying whether
// the request may have reached the seller and the HTTP status seen; the
// context's end and a malformed envelope are returned as they are.
func (c *Session) CallTool(ctx context.Context, call buyer.ToolCall) (*buyer.Exchange, error) {
	resp, d, err := c.callToolRaw(ctx, call.Tool, call.Args, call.Trace)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, rawrpc.ErrMalformed) {
			return nil, err
		}
		return nil, &buyer.TransportError{Op: fmt.Sprintf("tools/call %q", call.Tool), StatusCode: d.status, Sent: d.sent,
			Closed: errors.Is(err, mcp.ErrConnectionClosed), Err: err}
	}
	return &buyer.Exchange{Protocol: buyer.MCP, Envelope: resp.Message, Exact: resp.Exact}, nil
}

// ToolNames lists the names of the seller's tools (tools/list, every
// page).
func (c *Session) ToolNames(ctx context.Context) ([]string, error) {
	tools, err := c.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names, nil
}
