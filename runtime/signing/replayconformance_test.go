package signing_test

import (
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/signing/replaytest"
)

// The in-memory store passes the ReplayStore conformance suite that the
// PostgreSQL store (pgstore.Nonces) passes too.
func TestMemoryReplayConformance(t *testing.T) {
	replaytest.Conformance(t, func(*testing.T) signing.ReplayStore { return signing.NewMemoryReplay(0) })
}
