package replay_test

import (
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/replay"

	"github.com/adcpgen/adcpgen/runtime/signing/replay/replaytest"
)

// The in-memory ledger passes the Ledger conformance suite that the
// PostgreSQL store (pgstore.Nonces) passes too.
func TestLocalConformance(t *testing.T) {
	replaytest.Conformance(t, func(*testing.T) replay.Ledger { return replay.NewLocal(0) })
}
