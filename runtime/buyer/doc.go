// Package buyer is the typed AdCP client: it calls any tool of the spec
// version a generated package describes, over any Transport, and returns
// the tool's typed response or interim payload, strictly decoded from the
// seller's exact bytes.
package buyer
