// Package rawrpc holds one JSON-RPC 2.0 response exactly as a peer sent it.
//
// The MCP and A2A SDKs decode responses into Go maps, where the last of
// duplicate keys wins, escapes are resolved and large numbers lose
// precision. The transports in runtime/mcpclient and runtime/a2aclient keep
// the bytes instead and hand them over as a Response, so that the strict
// typed decoders see what the seller sent. This package depends on the
// standard library only: the typed layer can accept a Response from either
// transport without importing an SDK.
//
// Parse checks only the top level of the response object (one object, no
// member twice, however its name is escaped, at most one of result and
// error); everything inside result and error is left to the strict
// decoders.
package rawrpc
