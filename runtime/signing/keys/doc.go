// Package keys holds the keys of AdCP's RFC 9421 profile (security.mdx
// "Agent key publication"): an agent's key pair (GenerateKey; the private
// JWK it keeps, MarshalPrivateJWK and ParsePrivateJWK), the public JWK and
// JWKS it publishes at its jwks_uri, the two algorithms the profile allows
// (Ed25519 and ECDSA P-256), and the Resolver a verifier resolves a
// signature's keyid with: Static over keys registered at onboarding,
// Resolvers over several, or package discovery's, which fetch them from the
// agent's operator. Package signing signs and verifies with them.
package keys
