package main

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestRunnerClock: the preload starts node's clock where it is told and
// lets it run on; parsing, explicit dates, instanceof and subclasses are
// the real Date's.
func TestRunnerClock(t *testing.T) {
	env := jsinterop.Require(t)
	script := filepath.Join(filepath.Dir(env.Dir), "conformance", runnerClockScript)
	cmd := exec.CommandContext(t.Context(), env.Node, "--import", (&url.URL{Scheme: "file", Path: script}).String(), "-e", `
const a = Date.now(); const start = new Date().toISOString();
class D extends Date {}
console.log(JSON.stringify({start, iso: new Date(0).toISOString(), parse: Date.parse("2026-01-01T00:00:00Z"),
  inst: new Date() instanceof Date, sub: new D() instanceof D, subNow: new D().getTime() >= a, str: Date().slice(0, 15)}))`)
	cmd.Env = append(os.Environ(), "ADCP_RUNNER_CLOCK="+DefaultRunnerClock)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Start, ISO, Str string
		Parse           int64
		Inst, Sub       bool
		SubNow          bool `json:"subNow"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if !strings.HasPrefix(got.Start, "2026-03-01T00:00:0") || got.ISO != "1970-01-01T00:00:00.000Z" || got.Parse != 1767225600000 ||
		!got.Inst || !got.Sub || !got.SubNow || got.Str != "Sun Mar 01 2026" {
		t.Fatalf("shifted clock: %s", out)
	}
	// Without the variable the preload refuses to run.
	cmd = exec.CommandContext(t.Context(), env.Node, "--import", (&url.URL{Scheme: "file", Path: script}).String(), "-e", "0")
	cmd.Env = append(os.Environ(), "ADCP_RUNNER_CLOCK=")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "ADCP_RUNNER_CLOCK") {
		t.Fatalf("no clock given: %v %s", err, out)
	}
}

// TestSellerClock: examples/seller started here runs on the runner's
// clock; a seller named by -agent or the JavaScript SDK's keeps its own.
func TestSellerClock(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   config
		clock string
		want  []string
	}{
		{"examples/seller", config{seller: "go"}, DefaultRunnerClock, []string{"-clock", DefaultRunnerClock}},
		{"real clock", config{seller: "go"}, "", nil},
		{"running agent", config{seller: "go", agentURL: "http://127.0.0.1:8080"}, DefaultRunnerClock, nil},
		{"js seller", config{seller: "js"}, DefaultRunnerClock, nil},
	} {
		if got := sellerClock(&tc.cfg, tc.clock); !slices.Equal(got, tc.want) {
			t.Errorf("%s: sellerClock = %q, want %q", tc.name, got, tc.want)
		}
	}
}
