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

// requireKit skips a test without node or the runner kit (failing it
// under ADCP_REQUIRE_NODE=1, as CI sets), and returns the kit's folder.
func requireKit(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("ADCP_REQUIRE_NODE") == "1" {
			t.Fatal("node is not on PATH (ADCP_REQUIRE_NODE=1)")
		}
		t.Skip("node is not on PATH: install Node.js 20+ to run the compliance runner")
	}
	dir := os.Getenv("ADCP_CONFORMANCE_DIR")
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			t.Fatal(err)
		}
		dir = defaultKitDir(root)
	}
	if _, err := kitSource(dir); err != nil {
		if os.Getenv("ADCP_REQUIRE_NODE") == "1" {
			t.Fatalf("%v (ADCP_REQUIRE_NODE=1)", err)
		}
		t.Skip(err)
	}
	return dir
}

// TestRunAgainstJSSeller runs the real runner against the JavaScript SDK's
// seller: capability_discovery passes over both transports (with the
// capabilities skill in the card), and v3_envelope_integrity fails, as it
// does for every seller on that SDK (its get_adcp_capabilities answer
// carries no status), which must fail the whole run.
func TestRunAgainstJSSeller(t *testing.T) {
	kitDir := requireKit(t)
	jsinterop.Require(t) // the JavaScript SDK's seller
	for _, tc := range []struct {
		storyboard string
		protocols  []string
		ok         bool
		want       []string
	}{
		{"capability_discovery", []string{"mcp", "a2a"}, true, []string{
			"3.0.25  mcp       capability_discovery  2       0       0",
			"3.0.25  a2a       capability_discovery  2       0       0",
		}},
		{"v3_envelope_integrity", []string{"mcp"}, false, []string{
			"v3_envelope_integrity/no_legacy_status_fields (get_adcp_capabilities): Envelope carries the canonical v3 status field",
		}},
	} {
		t.Run(tc.storyboard, func(t *testing.T) {
			cfg := &config{
				kitDir:              kitDir,
				seller:              "js",
				jsCapabilitiesSkill: true,
				bundles:             []string{"3.0.25"},
				protocols:           tc.protocols,
				storyboards:         []string{tc.storyboard},
				full:                true,
				runnerClock:         DefaultRunnerClock,
				out:                 t.TempDir(),
				timeout:             2 * time.Minute,
				parallel:            2,
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
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("ADCP_REQUIRE_NODE") == "1" {
			t.Fatal("node is not on PATH (ADCP_REQUIRE_NODE=1)")
		}
		t.Skip("node is not on PATH")
	}
	script, err := filepath.Abs(runnerClockScript)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), nodeBin, "--import", (&url.URL{Scheme: "file", Path: script}).String(), "-e", `
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
	cmd = exec.CommandContext(t.Context(), nodeBin, "--import", (&url.URL{Scheme: "file", Path: script}).String(), "-e", "0")
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
