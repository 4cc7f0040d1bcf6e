package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// Options configure the MCP transport of a seller. The zero value
// publishes bundled request schemas, mirrors each response as JSON text,
// and keeps go-sdk's stateful sessions.
type Options struct {
	// Implementation names the server in the initialize handshake; nil
	// means {Name: "adcp-seller", Version: the spec version}.
	Implementation *mcp.Implementation
	// Server are go-sdk's server options (instructions, logger, ...).
	Server *mcp.ServerOptions
	// MinimalInputSchemas publishes {"type":"object"} as every tool's
	// input schema, as many AdCP sellers do, instead of the tool's request
	// schema bundled from seller.Options.Schemas (also the fallback when
	// the server has no Schemas).
	MinimalInputSchemas bool
	// Projections publishes, for each tool the version's MCP projection
	// covers, the projection's inputSchema as the tool's input schema
	// instead of the bundled request schema. AdCP publishes projections
	// from 3.2 (mcp/<date>/ in seller.Options.Schemas, draft 2020-12
	// schemas made for tools/list; the newest date is used). Tools it does
	// not cover, and versions that ship none, keep the bundled schema.
	Projections bool
	// OutputSchemas, with Projections, also publishes the projection's
	// outputSchema of each such tool as its output schema. A client may
	// then check every structuredContent against it: the official
	// TypeScript MCP client does, for AdCP errors ({"adcp_error": ...})
	// too, and fails those calls, which is why the JavaScript AdCP SDK's
	// seller declares no output schema. Publish them for clients that
	// check successful results only.
	OutputSchemas bool
	// TerseText sends the answer's one-line message as the text content
	// instead of the JSON text of structuredContent (which MCP asks of
	// tools that return structured content, for older clients).
	TerseText bool
	// Stateless serves every HTTP request on its own, without sessions
	// (go-sdk's StreamableHTTPOptions.Stateless): any replica answers any
	// request, and a dropped connection cancels its call.
	Stateless bool
	// JSONResponse answers POSTs with application/json instead of an SSE
	// stream. With Stateless, NewStreamableHandler answers tools/call
	// itself, as go-sdk would byte for byte, at a fraction of the cost
	// (see the package doc).
	JSONResponse bool
	// AcceptJSONOnly, with JSONResponse, also serves POSTs whose Accept
	// header lists application/json without text/event-stream (or none),
	// which go-sdk refuses with 400: raw JSON-RPC probes send them, such as
	// the compliance runner's. It has no effect without JSONResponse.
	AcceptJSONOnly bool
	// LocalPrincipal is the principal of calls that arrive without HTTP
	// (stdio): the local user. Without one, stdio calls are anonymous and
	// only public tools answer them.
	LocalPrincipal seller.Principal
}

// NewServer returns go-sdk's server with one tool per tool srv serves, in
// any of its releases (seller.Server.Releases: a tool several serve is
// published as the default release's, else the first's), each answered
// through srv.Serve from the raw arguments (CallToolParamsRaw.Arguments,
// never a decoded map), which picks the release per call. Serve it with
// NewStreamableHandler (which also authenticates) or ServeStdio.
func NewServer(srv *seller.Server, opts Options) (*mcp.Server, error) {
	server, _, err := newServer(srv, opts)
	return server, err
}

// newServer is NewServer, also returning the names of the tools it
// registered.
func newServer(srv *seller.Server, opts Options) (*mcp.Server, map[string]bool, error) {
	impl := opts.Implementation
	if impl == nil {
		impl = &mcp.Implementation{Name: "adcp-seller", Version: srv.Spec().Version()}
	}
	server := mcp.NewServer(impl, opts.Server)
	server.AddReceivingMiddleware(unknownTools(srv))
	addUnservedTool(server, srv, opts)
	added := map[string]bool{}
	for _, r := range srv.Releases() {
		var proj *projection
		if opts.Projections && !opts.MinimalInputSchemas && r.Schemas() != nil {
			var err error
			if proj, err = loadProjection(r.Schemas()); err != nil {
				return nil, nil, fmt.Errorf("mcpserver: MCP projection of %s: %w", r.Spec().Version(), err)
			}
		}
		for _, t := range r.Tools() {
			if added[t.Name] {
				continue
			}
			added[t.Name] = true
			tool := &mcp.Tool{Name: t.Name, Description: t.Summary, Annotations: annotations(t)}
			if err := setSchemas(tool, t, r, proj, opts); err != nil {
				return nil, nil, fmt.Errorf("mcpserver: tool %s: %w", t.Name, err)
			}
			server.AddTool(tool, toolHandler(srv, t.Name, opts))
		}
	}
	return server, added, nil
}

// setSchemas sets the input schema tools/list publishes for a tool (the
// projection's, the bundled request schema or any object) and, when
// asked, the projection's output schema.
func setSchemas(tool *mcp.Tool, t registry.Tool, srv *seller.Server, proj *projection, opts Options) error {
	tool.InputSchema = minimalInputSchema
	if opts.MinimalInputSchemas || srv.Schemas() == nil {
		return nil
	}
	if pt, ok := proj.tool(t.Name); ok && pt.input != "" {
		in, err := schemaFile(srv.Schemas(), pt.input, true)
		if err != nil {
			return fmt.Errorf("input schema: %w", err)
		}
		tool.InputSchema = in
		if opts.OutputSchemas && pt.output != "" {
			out, err := schemaFile(srv.Schemas(), pt.output, false)
			if err != nil {
				return fmt.Errorf("output schema: %w", err)
			}
			tool.OutputSchema = out
		}
		return nil
	}
	if t.RequestSchema != "" {
		b, err := bundleSchema(srv.Schemas(), t.RequestSchema)
		if err != nil {
			return fmt.Errorf("input schema: %w", err)
		}
		tool.InputSchema = b
	}
	return nil
}

func annotations(t registry.Tool) *mcp.ToolAnnotations {
	if t.Protocol == "" { // a raw tool: nothing known
		return nil
	}
	a := &mcp.ToolAnnotations{ReadOnlyHint: !t.Mutating}
	if t.Mutating {
		a.IdempotentHint = t.IdempotencyRequired
	}
	return a
}

// toolHandler answers tools/call of one tool.
func toolHandler(srv *seller.Server, name string, opts Options) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := &seller.Call{Transport: seller.TransportMCP}
		if req.Params != nil {
			c.Arguments, c.Meta = req.Params.Arguments, req.Params.Meta
		}
		if req.Extra != nil {
			c.Header = req.Extra.Header
		}
		p, viaHTTP := principalOf(req.Extra)
		if !viaHTTP {
			p = opts.LocalPrincipal
		}
		c.Signer = signerOf(req.Extra)
		if httpCtx := requestContext(req.Extra); httpCtx != nil {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			defer cancel()
			stop := context.AfterFunc(httpCtx, cancel)
			defer stop()
		}
		c.Principal = p
		return ResultOf(answer(ctx, srv, name, c), opts.TerseText), nil
	}
}

// Where the gate puts the seller principal, the verified signer and the
// HTTP request's context in the TokenInfo go-sdk hands to tool handlers.
const (
	principalKey  = "adcpgen.principal"
	signerKey     = "adcpgen.signer"
	requestCtxKey = "adcpgen.request_context"
)

// signerOf reads the verified signer the HTTP gate admitted the call
// with, nil without one.
func signerOf(extra *mcp.RequestExtra) *signing.VerifiedSigner {
	if extra == nil || extra.TokenInfo == nil {
		return nil
	}
	sg, _ := extra.TokenInfo.Extra[signerKey].(*signing.VerifiedSigner)
	return sg
}

// requestContext is the context of the HTTP request that carried a call,
// nil without one.
func requestContext(extra *mcp.RequestExtra) context.Context {
	if extra == nil || extra.TokenInfo == nil {
		return nil
	}
	ctx, _ := extra.TokenInfo.Extra[requestCtxKey].(context.Context)
	return ctx
}

// principalOf reads the principal the HTTP gate authenticated; viaHTTP is
// false for a call that did not come over HTTP.
func principalOf(extra *mcp.RequestExtra) (p seller.Principal, viaHTTP bool) {
	if extra == nil || extra.Header == nil {
		return seller.Principal{}, false
	}
	if extra.TokenInfo != nil {
		if pp, ok := extra.TokenInfo.Extra[principalKey].(seller.Principal); ok {
			return pp, true
		}
	}
	return seller.Principal{}, true
}

// tokenInfo carries the admitted principal and signer and the HTTP
// request's context to the tool handlers.
func tokenInfo(a seller.Admission, requestCtx context.Context) *auth.TokenInfo {
	p := a.Principal
	return &auth.TokenInfo{UserID: p.ID, Scopes: p.Scopes, Expiration: p.Expiration,
		Extra: map[string]any{principalKey: p, signerKey: a.Signer, requestCtxKey: requestCtx}}
}

// ResultOf is the MCP result of an answer. A response: structuredContent
// is the answer's body, the response object the seller completed with the
// protocol envelope's members (seller.Answer.Body), and the text content
// is its JSON text (or the answer's message with terse). An error: isError, structuredContent
// {"adcp_error": ..., "context": ...} and the same JSON as content[0].text,
// then a terse sentence.
func ResultOf(a *seller.Answer, terse bool) *mcp.CallToolResult {
	if a.Error != nil {
		data := errorObject(a)
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(data)}, &mcp.TextContent{Text: seller.TerseText(a.Error)}},
			StructuredContent: json.RawMessage(data),
			IsError:           true,
		}
	}
	text := string(a.Body)
	if terse {
		text = terseText(a)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(a.Body)}
}

// errorObject is the structured content of an error answer:
// {"adcp_error": ..., "context": ...}.
func errorObject(a *seller.Answer) []byte {
	data, err := seller.ErrorObject(a)
	if err != nil { // unreachable: Serve checked the error
		data = []byte(`{"adcp_error":{"code":"SERVICE_UNAVAILABLE","message":"Service temporarily unavailable","recovery":"transient"}}`)
	}
	return data
}

// terseText is the text content of a response with TerseText: its message,
// or its status.
func terseText(a *seller.Answer) string {
	if a.Message != "" {
		return a.Message
	}
	return "Task " + string(a.Status) + "."
}
