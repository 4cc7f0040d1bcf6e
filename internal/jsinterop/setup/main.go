// Command setup installs the JavaScript SDK pinned by
// internal/jsinterop/package-lock.json before the tests run, so that no
// test reaches the npm registry: `make test` runs it first. Without node
// and npm it says so and exits 0 (the tests then skip, or fail under
// ADCP_REQUIRE_NODE=1).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

func main() {
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	env, err := jsinterop.Setup(context.Background(), logf)
	switch {
	case errors.Is(err, jsinterop.ErrNoNode):
		fmt.Fprintf(os.Stderr, "jsinterop setup: skipped: %v\n", err)
	case err != nil:
		fmt.Fprintf(os.Stderr, "jsinterop setup: %v\n", err)
		os.Exit(1)
	default:
		fmt.Printf("jsinterop setup: node %s, the pinned JavaScript SDK is installed in %s\n", env.NodeVersion, env.Dir)
	}
}
