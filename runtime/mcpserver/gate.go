package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// NewStreamableHandler serves srv over MCP streamable HTTP: go-sdk's
// StreamableHTTPHandler with NewServer's tools, behind Gate. Mount it
// where the agent's MCP endpoint is (/mcp).
func NewStreamableHandler(srv *seller.Server, opts Options) (http.Handler, error) {
	server, tools, err := newServer(srv, opts)
	if err != nil {
		return nil, err
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: opts.Stateless, JSONResponse: opts.JSONResponse, Logger: srv.Logger()})
	if opts.AcceptJSONOnly && opts.JSONResponse {
		h = acceptJSONOnly(h)
	}
	return gate(srv, h, newDirect(srv, opts, tools)), nil
}

// acceptJSONOnly lists text/event-stream in the Accept header of a POST that
// lacks it, for go-sdk, which requires both; with JSONResponse the answer
// is JSON either way.
func acceptJSONOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			accept := r.Header.Get("Accept")
			if !strings.Contains(accept, "text/event-stream") {
				if strings.TrimSpace(accept) == "" {
					accept = "application/json"
				}
				r.Header.Set("Accept", accept+", text/event-stream")
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Gate authenticates every request before next (an MCP endpoint) sees it
// (seller.Server.Admit). It reads the JSON-RPC body (capped at the
// server's MaxRequestBytes plus the envelope) to learn which tools it
// calls: initialize, tools/list and calls of public tools pass without
// credentials; a call of any other tool without them, and any request with
// credentials the Authenticator refuses, is answered with HTTP 401, a
// WWW-Authenticate challenge and a JSON-RPC error -32028 carrying the AdCP
// error. With the server's SignedRequests, the RFC 9421 signature is
// checked first, on the exact bytes: a refused one is HTTP 401 with
// WWW-Authenticate: Signature error="<code>". A JSON-RPC batch is judged
// by its strictest call, then refused (HTTP 400, -32600 and a correctable
// INVALID_REQUEST; MCP's transport has had no batches since 2025-06-18):
// go-sdk, which still runs them for older protocol versions, never sees
// one. The authenticated principal and the verified signer reach the tool
// handlers through go-sdk's TokenInfo (which also binds a session to its
// principal).
func Gate(srv *seller.Server, next http.Handler) http.Handler { return gate(srv, next, nil) }

// gate is Gate; d, when set, answers the calls it can once they are
// admitted (see direct), before next.
func gate(srv *seller.Server, next http.Handler, d *direct) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := srv.ReadRPCBody(w, r)
		if !ok {
			return
		}
		tool, id := "", json.RawMessage(nil)
		if body != nil {
			tool, id = protectedCall(srv, body)
		}
		adm, fail := srv.Admit(r, body, tool)
		if fail != nil {
			WriteAuthFailure(w, fail, id)
			return
		}
		if !srv.CheckRPCBody(w, body) {
			return
		}
		if d != nil && d.serve(w, r, body, adm) {
			return
		}
		if r.Method == http.MethodPost {
			// go-sdk runs tool handlers on the session's context, not the
			// request's: a buyer whose connection drops would leave its
			// handler running. The request's context rides along with the
			// principal so the handler stops when the buyer is gone.
			r = withTokenInfo(r, tokenInfo(adm, r.Context()))
		}
		next.ServeHTTP(w, r)
	})
}

// protectedCall returns the tool a JSON-RPC request (or batch) calls that
// needs credentials, else any tool it calls, else ""; and the request id
// of a single request.
func protectedCall(srv *seller.Server, body []byte) (tool string, id json.RawMessage) {
	v, err := wire.ParseLenient(body)
	if err != nil {
		return "", nil
	}
	pick := func(msg wire.Lenient) {
		if !msg.Get("method").StringIs("tools/call") {
			return
		}
		name, ok := msg.Get("params").Get("name").AsString()
		if !ok {
			return
		}
		if tool == "" || (srv.Public(tool) && !srv.Public(name)) {
			tool = name
		}
	}
	if v.IsArray() {
		v.Elems(func(e wire.Lenient) bool { pick(e); return true })
		return tool, nil
	}
	pick(v)
	return tool, v.Get("id").Raw()
}

// WriteAuthFailure answers a refused request: the failure's status (401),
// its WWW-Authenticate challenge, and a JSON-RPC error response for id
// carrying data.adcp_error (seller.AuthFailure.Write).
func WriteAuthFailure(w http.ResponseWriter, fail *seller.AuthFailure, id json.RawMessage) {
	fail.Write(w, id)
}

// withTokenInfo returns r with ti in its context where go-sdk reads it
// (auth.TokenInfoFromContext). go-sdk sets it only through
// auth.RequireBearerToken, so this runs that middleware, with a verifier
// answering ti, on a copy of r that carries a bearer header, and keeps
// the context it produces.
func withTokenInfo(r *http.Request, ti *auth.TokenInfo) *http.Request {
	var ctx context.Context
	inject := auth.RequireBearerToken(
		func(context.Context, string, *http.Request) (*auth.TokenInfo, error) { return ti, nil },
		&auth.RequireBearerTokenOptions{AllowMissingExpiration: true},
	)(http.HandlerFunc(func(_ http.ResponseWriter, r2 *http.Request) { ctx = r2.Context() }))
	probe := r.Clone(r.Context())
	probe.Header.Set("Authorization", "Bearer principal")
	inject.ServeHTTP(discard{}, probe)
	if ctx == nil { // the principal's credential has expired
		return r
	}
	return r.WithContext(ctx)
}

// discard is a ResponseWriter that drops everything.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}
