// Package rpcerr is the AdCP error a seller's infrastructure sends before
// any tool runs: a JSON-RPC error under one of the codes AdCP reserves
// (transport-error-mapping: -32029 RATE_LIMITED, -32028 AUTH_MISSING,
// -32027 SERVICE_UNAVAILABLE), carrying the adcp_error in
// error.data.adcp_error, where buyers read it.
//
// Only those codes travel this way: every other AdCP error is a tool-level
// result (seller.ErrorAnswer, which the transports send as a tool error or
// a failed task), and New refuses it. runtime/seller's gates and
// runtime/mcpsdk's RPCError build their errors here.
package rpcerr
