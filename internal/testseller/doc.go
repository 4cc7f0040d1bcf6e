// Package testseller runs AdCP sellers on the official SDKs' servers, on
// loopback, for tests: an MCP seller on go-sdk's mcp.Server behind
// mcp.NewStreamableHTTPHandler, and an A2A seller on a2a-go's default
// request handler behind a2asrv.NewJSONRPCHandler. Each answers every tool
// or skill with a canned reply, including hostile bytes (duplicate keys,
// "\u005f_proto__"), JSON-RPC errors carrying data.adcp_error, and a reply
// that never comes.
//
// How the SDK servers are made to send exact bytes:
//   - go-sdk marshals CallToolResult.StructuredContent with encoding/json,
//     which writes a json.RawMessage as is (only compacted), keeping
//     duplicate keys and escapes; a tool handler's *jsonrpc.Error becomes
//     the JSON-RPC error with its Data bytes untouched.
//   - a2a-go copies tasks through gob and holds DataPart data as
//     map[string]any, so a task built by an AgentExecutor cannot carry
//     duplicate keys. The seller's CallInterceptor (an a2a-go extension
//     point, run after the handler and before the JSON-RPC encoder) puts
//     json.RawMessage values into the DataParts of the outgoing task; the
//     top-level members of a DataPart stay a Go map, so hostile bytes live
//     one level down.
//   - a2a-go's server cannot put data into a JSON-RPC error (its error type
//     is internal and carries only {"error": text}); a real seller answers
//     such errors (rate limits) in HTTP middleware in front of the SDK, and
//     so does this one.
package testseller
