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
// carries no status), which must fail the whole run.
func TestRunAgainstJSSeller(t *testing.T) {
	jsinterop.Require(t) // skips without node
	for _, tc := range []struct {
		storyboard string
		ok         bool
		want       []string
	}{
		{"capability_discovery", true, []string{
			"mcp       capability_discovery  2       0       0",
			"a2a       capability_discovery  2       0       0",
		}},
		{"v3_envelope_integrity", false, []string{
			"v3_envelope_integrity/no_legacy_status_fields (get_adcp_capabilities): Envelope carries the canonical v3 status field",
		}},
	} {
		t.Run(tc.storyboard, func(t *testing.T) {
			cfg := &config{
				seller:              "js",
				jsCapabilitiesSkill: true,
				protocols:           []string{"mcp", "a2a"},
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
