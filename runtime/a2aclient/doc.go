// Package a2aclient calls AdCP skills of an A2A seller through
// github.com/a2aproject/a2a-go over JSON-RPC and keeps the bytes of each
// response exactly as the seller sent them.
//
// a2a-go v0.3.3 loses the seller's bytes in three places: DataPart data is
// decoded into map[string]any (duplicate keys collapse, escapes such as
// "\u005f_proto__" resolve, large numbers round); a JSON-RPC error keeps
// only its code and data.error text, dropping the rest of error.data (so
// data.adcp_error is gone); and a non-200 answer is reported by status
// line only, its body unread. This package wraps the caller's http.Client:
// during a call, the response body is read whole (application/json) or cut
// into its "data: " lines as a2a-go cuts them (text/event-stream), and the
// call returns those bytes as a rawrpc.Response once a2a-go is done. The
// call's context carries the slot the bytes go to, so concurrent calls
// never mix; each response's id is checked against its request's.
//
// Agent cards without preferredTransport (as sellers built with the
// JavaScript SDK publish them) are accepted: JSON-RPC is the A2A default,
// which a2a-go v0.3.3 does not assume ("no compatible transports found").
// Only the JSON-RPC transport is ever used.
//
// Authentication (a bearer token, custom headers) is the caller's
// http.Client's business; it is used for the agent card too.
package a2aclient
