// Package wiredesc holds the descriptors generated code declares for its
// types (Desc and what it is made of) and runtime/wire's engine walks to
// decode and encode them. Generated code names them through
// runtime/wireimpl, which re-exports them; nothing else should.
//
// A Desc is a static value the compiler lays out as data: a package of
// thousands of types costs the compiler a table per type instead of a
// decoder and an encoder per type (see make gen-cost), and the rules stay in
// one place, the engine. A Desc never changes after it is declared; what
// the engine derives from it (field offsets through reflection, a key
// table, the required set) is computed on first use and kept in the Desc
// (see Desc.Cache).
package wiredesc
