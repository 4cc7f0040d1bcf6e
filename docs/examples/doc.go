// Package examples holds the Go that the README and docs/ show, so that
// every snippet a reader copies compiles and runs (examples_test.go runs
// the buyer against the seller on loopback). Each snippet is the region
// between a "// snippet: NAME" line and the next "// end snippet" line;
// docs/weave_test.go checks that the markdown shows it as it is here.
//
// The generated package here is the seller tests' own (internal/sellertest
// /adcpt), imported under the name your package would have, adcp.
package examples
