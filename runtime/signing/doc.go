// Package signing is AdCP's RFC 9421 signature profile, both ends of it:
// requests an agent signs and the endpoint verifies (security.mdx "Signed
// Requests (Transport Layer)"), and webhooks a seller signs and the buyer's
// receiver verifies ("Webhook callbacks"). It depends on the standard
// library, golang.org/x/net (IDNA, the public suffix list) and runtime/wire,
// and passes every published request- and webhook-signing vector.
//
// # Profiles
//
// Everything version-dependent is a Profile, chosen from the AdCP version
// the endpoint serves (a generated package's Spec().Version()), never from
// the request: RequestProfile and WebhookProfile.
//
//   - 3.0 and 3.1 requests: Signature and Content-Digest in unpadded
//     base64url, content-digest coverage per the endpoint's
//     covers_content_digest (Profile.WithDigest: "either" by default,
//     "required", "forbidden").
//   - 3.2 requests: RFC 8941 sf-binary (padded standard base64; "-" and "_"
//     are malformed), content-digest covered on every signed request with a
//     body.
//   - Webhooks, all 3.x: the legacy encoding, content-digest always
//     covered; a 3.0 receiver accepts only adcp_use "webhook-signing" keys,
//     3.1 and later "request-signing" keys too.
//
// # Signing
//
// A Signer holds one key (any crypto.Signer whose public key is Ed25519 or
// ECDSA P-256: an in-memory key, or a KMS or HSM handle, whose DER ECDSA
// signatures are converted to the r‖s the profile requires) and signs
// Messages (method, URL, headers, the exact body bytes), outgoing
// *http.Requests (SignRequest), or every request an http.Client sends
// (Transport). It covers @method, @target-uri, @authority, content-type
// with a body and content-digest as the profile says, with the six
// parameters (created, expires 300 s later, a 128-bit nonce, keyid, alg,
// tag) under the label sig1. Package keys makes a key pair and the public
// JWK to publish (GenerateKey), and stores the private key
// (MarshalPrivateJWK, ParsePrivateJWK).
//
// # Verifying
//
// A Verifier runs the checklist (security.mdx "Verifier checklist
// (requests)", or its webhook twin) in its order and returns the verified
// signer (keyid, the agent URL its key source vouches for) or a *Rejection
// with the exact code, the step, and the header, component or parameter at
// fault:
//
//  1. Signature-Input and Signature parse as strict RFC 8941 dictionaries
//     (a repeated label, parameter or component is malformed); one label
//     is processed (sig1, or the only one); covered fields are
//     single-valued, hosts in A-labels; both headers are under 8 KiB and
//     the body under 1 MiB, before any other work.
//  2. All six parameters are there, the nonce at least 16 bytes of
//     unpadded base64url.
//  3. The tag is the profile's.
//  4. The algorithm is ed25519 or ecdsa-p256-sha256.
//  5. The window is at most 300 s and holds now, with 60 s of skew.
//  6. The covered components are the profile's.
//  7. The key is found (a keys.Resolver: keys.Static, or package discovery's
//     JWKS URL and agent sources).
//  8. Its purpose fits (use, key_ops, adcp_use; alg, kty and crv agree).
//  9. It is not revoked (a revocation.Source), and (9a) its keyid is under
//     the replay cap: both before any cryptography.
//  10. @target-uri is canonicalized (CanonicalURL: IDNA, one root dot,
//     default ports, dot segments keeping "//", percent-encoding, the query
//     byte for byte, IPv6), the request's authority matches it, and the
//     signature verifies.
//  11. The body matches its digest.
//  12. The nonce was not seen.
//  13. The nonce is recorded, atomically with the cap.
//  14. The body repeats no key (runtime/wire's reader), checked after the
//     nonce is burned.
//
// Verifier.Decide adds the rules around the checklist for request
// endpoints: the call's Mode from the endpoint's OperationPolicy (supported_for,
// warn_for, required_for and their protocol_methods_ twins), whether
// another credential (bearer, API key, mTLS) was valid, and that a body
// registering a webhook authentication block must be signed. Reject
// answers with WriteChallenge: HTTP 401 and WWW-Authenticate: Signature
// error="<code>", nothing more of the failure.
//
// # Keys, replay and revocation
//
// What the verifier consults has a package of its own, along the lines a
// user meets it: keys (the JWK and JWKS an agent publishes, its key pair,
// and the Source a keyid is resolved with), replay (the Ledger of (keyid,
// nonce) pairs, with the per-keyid cap (1,000,000 for requests, 100,000
// for webhooks) reached as a refusal, request_signature_rate_abuse, never by
// eviction; replay.Local is the in-process one, about 43 MB for a million
// entries, and replicas behind one address share an SQL one, pgstore's
// Nonces) and revocation (revocation.Fixed revokes by configuration;
// revocation.Feed holds the operator's polled list,
// discovery.RevocationPoller, and goes stale after next_update plus four
// polling intervals).
package signing
