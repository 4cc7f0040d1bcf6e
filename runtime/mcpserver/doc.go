// Package mcpserver serves a seller (runtime/seller) over MCP on the
// official Go SDK's mcp.Server: streamable HTTP and stdio.
//
// ExampleNewStreamableHandler mounts a seller at /mcp and calls it with
// the typed buyer.
//
// Each served tool is a go-sdk tool whose handler receives the call's raw
// arguments (CallToolParamsRaw.Arguments, never a decoded map) and answers
// through seller.Server.Serve. tools/list publishes each tool's request
// schema as its input schema, bundled into one document that stands alone
// (Options.MinimalInputSchemas publishes {"type": "object"} instead;
// Options.Projections the version's own MCP projection, where AdCP
// publishes one, from 3.2: mcp/<date>/, with its output schemas on request).
//
// Results are as AdCP's MCP binding says: a response is structuredContent
// (the response object, with the envelope's status, task_id and message
// beside its fields) and its JSON text as content; an AdCP error is
// isError with structuredContent.adcp_error and the same JSON as
// content[0].text, then a terse sentence. A call of a tool the seller does
// not serve is answered the same way, with UNSUPPORTED_FEATURE, as an
// unknown skill is over A2A (go-sdk alone would send JSON-RPC -32602).
//
// With Options.Stateless and Options.JSONResponse (how a seller runs behind
// a load balancer), NewStreamableHandler answers a tools/call itself, after
// the same gate and through the same Serve, and writes the response go-sdk
// would write for it, byte for byte, without go-sdk's session per request
// and its re-encoding of the answer at each layer: a 36 KB answer costs
// the server a seventh of go-sdk's CPU (internal/bench, make bench-load).
// Other requests, and every request in the other modes, go to go-sdk.
//
// Gate authenticates every HTTP request before go-sdk sees it: discovery
// (initialize, tools/list, public tools) passes anonymously, anything else
// without valid credentials gets HTTP 401 with a WWW-Authenticate
// challenge. OAuth adapts go-sdk's auth.TokenVerifier to a
// seller.Authenticator, with RFC 9728 protected-resource metadata in the
// challenge (serve the metadata with auth.ProtectedResourceMetadataHandler).
package mcpserver
