// Package roundtrip proves the generated decoders against the published
// spec without committing code generated from it: it generates the packages
// of some spec versions into a temporary Go module (one directory per
// version), builds one harness program over all of them, and feeds it JSON
// documents as JSON lines; the harness decodes each strictly with the type
// generated for a schema, re-encodes it, decodes the bytes again and says,
// as JSON lines, what happened.
//
// The tests here drive it: round trips and mutations of synthesised
// instances of every schema of 3.1.19, 3.2.0-beta.3 and 3.2.0-beta.5
// (internal/synth),
// and the example payloads of the 3.0.26 bundle and the test vectors.
package roundtrip
