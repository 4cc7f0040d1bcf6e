// Package replay keeps the (keyid, nonce) pairs of AdCP's RFC 9421
// signatures (security.mdx "Transport replay dedup"): a Ledger remembers
// every accepted signature's pair until it can no longer verify and caps
// how many live pairs one keyid may hold, so a verifier refuses a replay
// (request_signature_replayed) and a flood (request_signature_rate_abuse)
// without ever evicting a live pair. Local is the one-process Ledger;
// replicas share package pgstore's Nonces, and replaytest holds every
// Ledger to the same contract.
package replay
