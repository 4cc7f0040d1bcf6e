// Package wire is the strict JSON reader and writer that adcpgen's generated
// types call. It is the only package generated code imports besides the
// standard library.
//
// Decoding is a single pass over the input, driven by generated code (no
// reflection, no intermediate map). In the default mode it rejects:
//   - the keys "__proto__", "constructor" and "prototype", at any depth and
//     however they are spelled with escapes, including inside kept unknown
//     members and raw JSON values;
//   - duplicate keys in one object (compared after unescaping);
//   - invalid UTF-8 and lone UTF-16 surrogate escapes;
//   - wrong JSON types, missing required fields (all of them reported at once)
//     and nesting deeper than Options.MaxDepth (default 512).
//
// Exact mode (UnmarshalExact, or Options.Exact) also rejects unknown fields
// and enum values the schema does not list; sellers use it to test their own
// output. Every failure is an *Error carrying a JSON pointer and a Kind.
package wire
