// Package wire decodes and encodes the types adcpgen generates, strictly:
// Unmarshal and UnmarshalExact read a payload into a generated type,
// Marshal writes one, and every failure is a *DecodeError carrying a Kind
// and the JSON pointer of the value at fault. Nullable, Date and DateTime
// are the types generated fields use for nullable values and the date
// formats. Lenient reads untrusted JSON a member at a time without
// decoding it (the runtime's extraction uses it), and Decoder and Encoder
// read and write JSON by hand with the same rules.
//
// Decoding is a single pass over the input with no intermediate map,
// driven by the descriptor every generated type returns from WireDesc
// (see runtime/wireimpl, which only generated code imports). In the
// default mode it rejects:
//   - the keys "__proto__", "constructor" and "prototype", at any depth and
//     however they are spelled with escapes, including inside kept unknown
//     members and raw JSON values;
//   - duplicate keys in one object (compared after unescaping);
//   - invalid UTF-8 and lone UTF-16 surrogate escapes;
//   - wrong JSON types, missing required fields (all of them reported at once)
//     and nesting deeper than DecodeOptions.MaxDepth (default 512).
//
// Exact mode (UnmarshalExact, or DecodeOptions.Exact) also rejects unknown
// fields and enum values the schema does not list; sellers use it to test
// their own output.
package wire
