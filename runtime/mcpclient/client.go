package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"

	"github.com/adcpgen/adcpgen/runtime/rawrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ConnectOptions configure a Session. The zero value is usable.
type ConnectOptions struct {
	// Implementation names this client to the seller; nil means
	// {Name: "adcpgen", Version: "0"}.
	Implementation *mcp.Implementation
	// ClientOptions are passed to mcp.NewClient.
	ClientOptions *mcp.ClientOptions
}

// Session is a connected MCP client session that returns raw responses.
type Session struct {
	session *mcp.ClientSession
	rec     *recorder
}

// ConnectHTTP connects to a streamable HTTP endpoint with the caller's
// http.Client (nil means http.DefaultClient), which carries authentication.
func ConnectHTTP(ctx context.Context, endpoint string, hc *http.Client, opts ConnectOptions) (*Session, error) {
	return Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, opts)
}

// ConnectCommand starts cmd and speaks MCP over its stdin and stdout (the
// stdio transport), recording responses byte for byte as the process
// writes them. Close closes its stdin and waits for it to exit, sending
// SIGTERM and then SIGKILL after 5 s each, as go-sdk's CommandTransport.
func ConnectCommand(ctx context.Context, cmd *exec.Cmd, opts ConnectOptions) (*Session, error) {
	if cmd == nil {
		return nil, errors.New("mcpclient: nil command")
	}
	return connect(ctx, opts, func(rec *recorder) mcp.Transport {
		return &connTransport{inner: &commandTransport{cmd: cmd, rec: rec}, rec: rec}
	})
}

// Connect connects over t. A *mcp.StreamableClientTransport is copied and
// its HTTP client wrapped, so responses are recorded byte for byte. Any
// other transport's Connection is wrapped; go-sdk's optional, unexported
// connection hooks are then not forwarded, which is harmless for its stdio,
// command, io and in-memory transports.
func Connect(ctx context.Context, t mcp.Transport, opts ConnectOptions) (*Session, error) {
	if t == nil {
		return nil, errors.New("mcpclient: nil transport")
	}
	return connect(ctx, opts, func(rec *recorder) mcp.Transport {
		if st, ok := t.(*mcp.StreamableClientTransport); ok {
			cp := *st
			cp.HTTPClient = rec.wrapHTTP(st.HTTPClient)
			return &cp
		}
		return &connTransport{inner: t, rec: rec}
	})
}

// connect opens a session over the transport recording returns for a new
// recorder.
func connect(ctx context.Context, opts ConnectOptions, recording func(*recorder) mcp.Transport) (*Session, error) {
	impl := opts.Implementation
	if impl == nil {
		impl = &mcp.Implementation{Name: "adcpgen", Version: "0"}
	}
	rec := newRecorder()
	session, err := mcp.NewClient(impl, opts.ClientOptions).Connect(ctx, recording(rec), nil)
	if err != nil {
		return nil, fmt.Errorf("mcpclient: connecting: %w", err)
	}
	return &Session{session: session, rec: rec}, nil
}

// CallToolRaw calls the tool name with args (a JSON object; nil means {})
// and returns the seller's JSON-RPC response: its result (a CallToolResult)
// or its error object (with data, such as data.adcp_error on -32029,
// -32028 and -32027), as sent. The error is non-nil only when no usable
// response arrived: the context ended first (its error is returned), the
// connection failed, or the response envelope is malformed
// (rawrpc.ErrMalformed, naming the JSON pointer).
func (c *Session) CallToolRaw(ctx context.Context, name string, args json.RawMessage) (*rawrpc.Response, error) {
	resp, _, err := c.callToolRaw(ctx, name, args, nil)
	return resp, err
}

// delivery is what the transport saw of a call's requests: whether one may
// have reached the seller, and the last HTTP status (0 for none).
type delivery struct {
	sent   bool
	status int
}

// callToolRaw is CallToolRaw, also reporting the call's delivery. trace,
// the trace context to propagate, goes in params._meta and, over HTTP, in
// the request's headers.
func (c *Session) callToolRaw(ctx context.Context, name string, args json.RawMessage, trace map[string]string) (*rawrpc.Response, delivery, error) {
	if args == nil {
		args = json.RawMessage(`{}`)
	}
	cl := &claim{rec: c.rec, trace: trace}
	defer c.rec.release(cl)
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if len(trace) > 0 {
		params.Meta = make(mcp.Meta, len(trace))
		for k, v := range trace {
			params.Meta[k] = v
		}
	}
	_, err := c.session.CallTool(withClaim(ctx, cl), params)
	var d delivery
	d.sent, d.status = c.rec.delivery(cl)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, d, fmt.Errorf("mcpclient: calling %q: %w", name, ctxErr)
	}
	resp, rerr := c.rec.result(cl)
	switch {
	case rerr != nil:
		return nil, d, fmt.Errorf("mcpclient: calling %q: %w", name, rerr)
	case resp != nil:
		// The SDK's own verdict (a JSON-RPC error, a result it could not
		// decode) is in the bytes; the typed step judges them.
		return resp, d, nil
	case err != nil:
		return nil, d, fmt.Errorf("mcpclient: calling %q: %w", name, err)
	}
	return nil, d, fmt.Errorf("calling %q: %w (the SDK reported success, but the transport recorded no bytes)", name, rawrpc.ErrNoResponse)
}

// ListTools lists every tool the seller offers, following pages.
func (c *Session) ListTools(ctx context.Context) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	for tool, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcpclient: listing tools: %w", err)
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

// SDK returns the underlying SDK session, for what this package does not
// wrap. Responses to calls made on it directly are not recorded.
func (c *Session) SDK() *mcp.ClientSession { return c.session }

// Close ends the session and its connection.
func (c *Session) Close() error { return c.session.Close() }
