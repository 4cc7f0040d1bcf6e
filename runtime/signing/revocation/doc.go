// Package revocation answers checklist step 9 of AdCP's RFC 9421 profile:
// is a signing key revoked, and is the verifier's view fresh enough to say
// (security.mdx "Revocation", "Transport revocation")? A Source answers;
// Feed is the one fed by polling the operator's signed revocation list
// (VerifyJWS checks its signature, ParseList reads it; package discovery's
// RevocationPoller keeps a Feed fresh), refusing new signatures once it is
// stale (ErrStale); Fixed revokes by configuration.
package revocation
