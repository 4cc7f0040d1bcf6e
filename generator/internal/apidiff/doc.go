// Package apidiff compares the Go API two generated packages expose: the
// IRs the generator builds from two spec versions, after naming. It reports
// what changed, member by member, and whether each change breaks a Go
// program that uses the old package.
//
// # Matching
//
// Types match by Go name, because the name is what Go code refers to (a
// name that now stands for another schema is also said, compatibly:
// type-schema-changed). The types left match by identity, and such a
// match is a rename: the same schema text (ir.Type.Digest) under another
// name, wherever it sits; then the same place (schema key) under another
// name, except places in a union arm or allOf member, which are known by
// index and move when an arm is inserted; then the same place in an allOf
// member known without the member's index (its properties are the merged
// struct's, wherever the member sits); then the arms of two matched
// unions that match (below), and the types under them. Everything else
// unmatched is removed or added.
//
// Union arms match by identity, never by position: the same Go field
// name, the same (matched) type, then what tells an arm apart: its
// discriminator values, title, label, required keys. An arm inserted or
// removed is reported as that, the arms after it unchanged; arms that come
// in another order are one compatible arms-reordered change. An arm named
// after its type is renamed with it in one change, the type's. Struct
// fields match by JSON name (their wire identity), enum constants by
// value, tools and error codes by name.
//
// # What breaks a Go consumer
//
// A change is breaking when code that compiled and worked against the old
// package may stop compiling or start failing at run time:
//
//   - Types: a removed type breaks (code naming it stops compiling); a renamed
//     type is a removal plus an addition and breaks; so does a change of kind
//     (struct to union, enum to scalar...) or of the Go type underneath a
//     defined type. An added type is compatible; so is a type the schema newly
//     deprecates (it is still generated), and a name now generated from
//     another schema (its members are compared like any type's).
//   - Fields: a removed field breaks. A field whose Go type changed breaks
//     (reads, assignments and literals stop compiling), including *T ↔ T
//     changes and changes that only follow a referenced type's rename. A
//     field whose Go name changed breaks. An added optional field is
//     compatible (keyed literals and decoders keep working). An added
//     required field breaks: encoders that build the type must now set it and
//     the strict decoders reject payloads from peers that omit it. A field
//     that became required breaks for the same reasons; one that became
//     optional is compatible unless its Go type changed with it (T becomes
//     *T for scalars, enums and structs). A struct that starts rejecting
//     undeclared members breaks (its raw-extras field goes away and decoding
//     gets stricter); one that starts keeping them is compatible.
//   - Enums: an added value is compatible: enums are open, so the old
//     decoders already accepted unknown values and the new constant is just
//     a new name. A removed value breaks code naming its constant (the value
//     itself still decodes, except in exact mode). A constant whose Go name
//     changed breaks.
//   - Unions: an added arm is compatible (a new field on the tagged struct;
//     code switching on Kind() should learn it), and so are arms in another
//     order (a decoder that tries arms in turn tries them in the new one). A
//     removed or renamed arm, or an arm whose Go type changed, breaks.
//   - Tools: an added tool is compatible; a removed tool breaks (Spec().Tool no
//     longer finds it). A tool whose request, response or async response type
//     changed breaks type assertions on what the tool table's constructors return;
//     a removed async status breaks, an added one is compatible. A newly
//     deprecated tool is compatible.
//   - Error codes: an added code is compatible. A removed code breaks (sellers
//     can no longer send it as a standard code and Spec().Recovery
//     forgets it); so does a changed recovery class, or a changed default recovery for
//     unknown codes, because the runtime's retry decision changes. A newly
//     deprecated code is compatible.
//   - Error details: a code that gains a details shape is compatible; a code
//     that loses one, or whose details type changed, breaks.
//
// Documentation changes are not reported.
//
// # JSON
//
// Report marshals to one object, with keys in this order and changes sorted
// by category (in the order listed by Categories), type, member, kind, from
// and to, so two runs on the same inputs give identical bytes:
//
//	{
//	  "from": {"version": "3.0.26", "source": "3.0.26", "types": 1422, "tools": 57, "codes": 45},
//	  "to":   {...},
//	  "breaking": 12,
//	  "compatible": 340,
//	  "categories": [{"category": "types", "breaking": 3, "compatible": 120}, ...],
//	  "changes": [
//	    {"category": "fields", "kind": "field-required", "breaking": true,
//	     "type": "Account", "member": "status", "go_name": "Status",
//	     "from": "*AccountStatus", "to": "AccountStatus",
//	     "schema": "core/account.json#/properties/status",
//	     "reason": "payloads without it now fail to decode and encoders must set it"},
//	    ...
//	  ]
//	}
//
// Empty members are left out. "type" is the Go type the change is about (its
// new name when it has one); "member" is the field's JSON name, the enum
// value, the arm's Go name, the tool or the error code; "from" and "to" are
// Go types, names or values before and after.
package apidiff
