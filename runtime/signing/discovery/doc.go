// Package discovery finds the keys that verify an AdCP agent's signatures
// by fetching what the agent's operator publishes, under the SSRF rules of
// security.mdx "Webhook URL validation" and the budgets of "Discovering an
// agent's signing keys via brand_json_url".
//
//   - Fetcher is the one way documents are fetched: https only, no
//     redirects followed, the host resolved once and every address checked
//     (no loopback, private, link-local, CGNAT or reserved address, IPv4
//     inside IPv6 included) and the connection made to the checked address,
//     5 s to connect, 10 s in all, a body cap per document, no proxy.
//   - JWKSEndpoint is a keys.Resolver over a jwks_uri: cached (5 minutes by
//     default, at most 30), refetched at once for an unknown kid unless the
//     last refetch was within 30 s, a failure remembered 10 s. Documents
//     are read with runtime/wire's strict reader; a duplicate key anywhere
//     refuses the JWKS.
//   - Agent is a keys.Resolver for one agent URL: get_adcp_capabilities
//     (through the caller's Capabilities, runtime/buyer's clients) →
//     identity.brand_json_url → brand.json (same eTLD+1 as the agent, by
//     golang.org/x/net/publicsuffix's pinned list, or delegated in
//     authorized_operators[]) → the agents[] entry whose url byte-equals the
//     agent URL → its jwks_uri, checked against identity.key_origins → JWKS.
//     Each step fails with its request_signature_* code.
//   - RevocationPoller keeps a revocation.Feed fresh from the
//     operator's signed revocation list.
//
// Every failure is a *signing.Rejection carrying its code, so a verifier
// answers it as is (request path) or as webhook_signature_key_unknown
// (webhook path). Tests reach httptest TLS servers on loopback with
// Fetcher.AllowLoopback; production code never sets it.
package discovery
