// Package validate checks JSON payloads against the schemas of one AdCP spec
// tree (a *spec.Tree), offline, with draft-07 semantics.
//
// Payload bytes are validated directly: each root schema compiles into a
// program of nodes (fast_program.go) run over a tape of the payload
// (fast_tape.go), with no decoded tree. github.com/santhosh-tekuri/jsonschema/v5
// is the reference: Options.Reference validates with it instead, both give
// the same issues (a differential test holds them to it), and the fast path
// hands it what it cannot decide alike (duplicate keys) or does not support.
//
// A schema is named by its $id in either published style
// ("/schemas/3.1.19/core/error.json" up to 3.1,
// "https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/error.json" from
// 3.2), by its tree path ("media-buy/get-products-response.json"), or by tool
// name and direction (manifest.json when the tree has one, else the
// <protocol>/<kebab(tool)>-request.json naming convention).
//
// Every reference resolves into the tree: a reference outside it is an
// error naming the URL, never a fetch. bundled/ and core/async-response-refs/
// (copies that reuse other files' $ids) are not loaded.
//
// Each root schema is compiled on first use and cached; CompileAll compiles
// everything up front.
//
// Formats are asserted (date-time, date, uri, uri-template, email, uuid,
// hostname, ...). Patterns have their ECMA-262 meaning: each is parsed as
// ECMA-262 and run as an equivalent RE2 expression, or, when it needs
// lookaround or back-references, by a bounded backtracking matcher.
//
// Results are AdCP issues[] entries (pointer, message, keyword, schema_id),
// sorted, ready for a VALIDATION_ERROR.
//
// What validation cannot see: as in a decoded map, duplicate keys (the last
// wins) and "__proto__", "constructor" or "prototype" keys pass unnoticed.
// The strict generated decoders reject them; use both on untrusted input.
package validate
