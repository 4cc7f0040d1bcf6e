// Package synth makes JSON instances from the raw JSON Schemas of an AdCP
// spec tree, for round-trip tests of the generated decoders.
//
// For a schema it builds a minimal instance (required members only, the
// fewest array items, null where null is allowed) and a maximal one (every
// property the schema allows, an extra member where the object is open, two
// array items near the top). Options.Variant picks which arm every oneOf and
// anyOf takes (Variant modulo its arm count), so variants 0..Instance.Arms-1
// between them take every arm of every union met.
//
// It follows $ref (root-relative and absolute $ids, local pointers), allOf,
// const, enum, type, required, properties, patternProperties,
// additionalProperties, propertyNames, min/maxProperties, dependencies,
// if/then/else, not, items, contains, min/maxItems, uniqueItems,
// min/maxLength, pattern (the schema's examples, or a string built from the
// expression), formats, and numeric bounds. A small evaluator checks each
// object against its whole schema and repairs what it can (drops optional
// members a not or a oneOf sibling objects to, adds then-branches and
// dependencies). What it cannot satisfy is listed in Instance.Problems; the
// caller's validator has the last word.
//
// Mutations turns a valid instance into invalid ones (a required member
// dropped, a member of the wrong type, "__proto__" plain and escaped, a
// duplicate key, an unknown member where the object is closed), each saying
// where a strict decoder should report it.
package synth
