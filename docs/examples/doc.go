// Package examples holds the Go that the README and docs/ show, so that
// every snippet a reader copies compiles and runs (examples_test.go runs
// the buyer against the seller on loopback). Each snippet is the region
// between a "// snippet: NAME" line and the next "// end snippet" line;
// docs/weave_test.go checks that the markdown shows it as it is here.
//
// The generated package here is generated/adcpt (the seller tests' own,
// from internal/sellertest's schema tree), imported under the name your
// package would have, adcp. Like the runtime's examples, these files
// import public packages only (runtime's TestExamplesImportPublicOnly).
package examples
