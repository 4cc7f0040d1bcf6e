// Command load measures a seller under load over real HTTP on loopback:
// adcpgen's seller (runtime/seller behind runtime/mcpserver and
// runtime/a2aserver) beside bare go-sdk and a2a-go servers sending the
// same bytes, in one run, and the buyer's typed call beside go-sdk's
// CallTool and a2a-go's client. "make bench-load" runs it (see README.md).
//
// Each server runs in a process of its own (this binary, re-executed), so
// its CPU time and allocations per call are its own; the load comes from
// this process, the same for every server: concurrent clients posting a
// prepared JSON-RPC request and reading the whole answer. Cells run in
// rounds, each comparison's cells next to each other, and ratios are the
// median of each round's ratio, with their range, since the machine is
// shared.
//
// It needs the generated 3.0.26 package (make bench-gen) and the
// adcpgen_bench build tag; without them it says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(2)
	}
}
