package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

// TestRunAgainstJSSeller runs the real runner against the JavaScript SDK's
// seller: capability_discovery passes over both transports (with the
// capabilities skill in the card), and v3_envelope_integrity fails, as it
// does for every seller on that SDK (its get_adcp_capabilities answer
// carries no status), which must fail the whole run; a probe task runs the
// storyboard through storyboard.mjs with a test kit.
func TestRunAgainstJSSeller(t *testing.T) {
	jsinterop.Require(t) // skips without node
	for _, tc := range []struct {
		storyboard string
		probeTask  string
		protocols  []string
		ok         bool
		want       []string
	}{
		{"capability_discovery", "", []string{"mcp", "a2a"}, true, []string{
			"mcp       capability_discovery  2       0       0",
			"a2a       capability_discovery  2       0       0",
		}},
		{"v3_envelope_integrity", "", []string{"mcp"}, false, []string{
			"v3_envelope_integrity/no_legacy_status_fields (get_adcp_capabilities): Envelope carries the canonical v3 status field",
		}},
		// Through storyboard.mjs and its test kit the API-key phase runs:
		// the unauthenticated and the wrong-key probes pass (2), the right
		// key fails on the seller's 406 to a JSON-only Accept header.
		{"security_baseline", "get_media_buy_delivery", []string{"mcp"}, false, []string{
			"mcp       security_baseline  2       1       3",
			"security_baseline/probe_api_key ($test_kit.auth.probe_task): Agent accepts the provided API key on the protected probe task; expected 200, got 406",
		}},
	} {
		t.Run(tc.storyboard, func(t *testing.T) {
			cfg := &config{
				seller:              "js",
				jsCapabilitiesSkill: true,
				probeTask:           tc.probeTask,
				protocols:           tc.protocols,
				storyboards:         []string{tc.storyboard},
				out:                 t.TempDir(),
				timeout:             2 * time.Minute,
			}
			var out bytes.Buffer
			ok, err := run(t.Context(), cfg, &out)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.ok {
				t.Errorf("ok = %v, want %v", ok, tc.ok)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q", w)
				}
			}
			if t.Failed() {
				t.Logf("output:\n%s", out.String())
			}
		})
	}
}
