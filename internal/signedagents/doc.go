// Package signedagents tests signed agents end to end on every published
// spec version with a signing profile (3.0.26, 3.1.19, 3.2.0-beta.3,
// 3.2.0-beta.5): a seller (runtime/seller with SignedRequests, served by
// runtime/mcpserver and runtime/a2aserver on loopback) verifying RFC 9421
// request signatures per operation, and the typed buyer (runtime/buyer
// over runtime/mcpclient and runtime/a2aclient) signing what the seller
// asks. The spec of each version is read from its published tree
// (generator.SpecTable: the tool table without generated types), so the
// tests need ../shared/adcp (internal/testspec). It holds tests only.
package signedagents
