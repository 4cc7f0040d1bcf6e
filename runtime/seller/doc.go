// Package seller is the AdCP agent's side of the wire: it builds MCP tool
// results (data or adcp_error), the reserved JSON-RPC transport errors, A2A
// completed and failed tasks, MCP Task statuses, and AdCP errors from
// upstream failures, each in the shape buyers' extraction expects.
//
// Set an error's Recovery: the standard class of a code is what your
// generated package's Spec says (adcp.Spec().Recovery(code)). An error
// without one is sent without recovery, and buyers classify it by code.
package seller
