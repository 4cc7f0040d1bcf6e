// Package runtime implements the normative AdCP client and server
// algorithms over MCP, JSON-RPC, A2A and webhooks, typed, and checked
// against every published conformance vector.
//
// # Buyer side
//
// Extraction takes the envelope bytes a transport delivered and returns a
// *Result: the success data (Data, the sender's bytes untouched), the
// structured error (Error, a Go error carrying code, message, recovery,
// retry_after, field, suggestion, issues and typed details), the Action to
// take and, when nothing usable came out, a Problem:
//
//	r := runtime.ExtractMCP(body) // or ExtractJSONRPC, ExtractA2A, ExtractWebhook
//	products, err := runtime.DecodeResult[adcp.GetProductsResponse](r)
//
// The algorithms follow JavaScript JSON.parse semantics where the
// specification's reference code relies on them: the last of duplicate keys
// wins, "__proto__" is plain data, and presence checks use JavaScript
// truthiness (isError: "false" is an error, adcp_error: 0 is absent).
// Extraction never schema-validates; the typed step (Decode and friends)
// runs the strict generated decoders, which reject prototype keys,
// duplicate keys and wrong types.
//
// Recovery comes from the error's recovery field, else from a CodeTable
// (the built-in table, or tables loaded from spec manifests with
// LoadManifestCodes and joined with UnionCodes); unknown codes are terminal
// unless Extractor.UnknownRecovery says otherwise. RetryPolicy retries
// transient errors with the seller's retry_after (rounded up, clamped to
// [1s, 1h]) or exponential backoff with jitter, within 3 attempts and 300
// seconds by default.
//
// Seller strings are untrusted: Sanitize, SanitizeTruncate, SanitizeJSON and
// Error.LLMContext strip hiding and reordering characters, truncate on UTF-8
// boundaries and wrap values in data delimiters; CheckSellerURL validates
// setup_url, policy_url and A2A file URIs against the seller's domain.
// WebhookHMAC verifies and signs legacy HMAC-SHA256 webhooks.
//
// # Seller side
//
// NewToolSuccess and NewToolError build MCP tool results, NewJSONRPCError
// the reserved transport errors (-32029, -32028, -32027), NewA2AFailedTask
// and NewA2ACompletedTask A2A tasks, TranslateUpstream AdCP errors from
// upstream failures, and MCPTaskStatus maps AdCP statuses to MCP Tasks.
//
// Adapters for the official MCP Go SDK and for a2a-go live in the
// sub-packages mcpsdk and a2ago, so this package needs neither.
package runtime
