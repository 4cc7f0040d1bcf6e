// Package mcpclient calls the tools of an MCP seller through the official Go
// SDK (github.com/modelcontextprotocol/go-sdk) and keeps the bytes of each
// response exactly as the seller sent them.
//
// go-sdk decodes a CallToolResult into Go values (structuredContent becomes
// a map), which drops duplicate keys, resolves escapes such as
// "\u005f_proto__" and rounds large numbers. It keeps the bytes of result
// and error.data undecoded at the JSON-RPC layer, but decodes the envelope
// around them, so a repeated "result" member is silently resolved. This
// package therefore records each response lower down:
//
//   - streamable HTTP: a RoundTripper around the caller's http.Client
//     copies every response body as the SDK reads it, whole for
//     application/json and event by event for text/event-stream, cut
//     exactly as the SDK cuts them;
//   - stdio (ConnectCommand): the process's stdout is tapped and cut into
//     JSON texts as go-sdk reads them;
//   - any other transport (in-memory, custom, an mcp.CommandTransport
//     passed to Connect): the SDK's Connection is wrapped, and the response
//     is rebuilt around the SDK's undecoded result or error.data bytes
//     (rawrpc.Response.Exact is false).
//
// Over streamable HTTP, the SDK is then handed a stand-in for the answer to
// a CallToolRaw (the same id, an empty CallToolResult): CallToolRaw returns
// the recorded bytes and only the SDK's error, so the SDK's decoding of a
// large result into maps, most of a call's cost, is skipped. Errors, and
// answers to calls made on SDK() directly, reach the SDK unchanged.
//
// A response is matched to its call by JSON-RPC id: the call's context
// carries a claim that the RoundTripper (or Connection wrapper) fills with
// the id of the request it sends, so concurrent calls never mix. Only
// responses to claimed ids are kept, and each is dropped once its call
// returns.
//
// Authentication (a bearer token, custom headers) is the caller's
// http.Client's business: its RoundTripper runs under the recorder.
package mcpclient
