package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// A report as the runner writes it, cut down to what is read.
const fullReport = `{
  "overall_status": "partial",
  "storyboards_executed": ["error_compliance"],
  "tracks": [{"scenarios": [{"scenario": "error_compliance/error_responses", "steps": [
    {"step": "Reject negative budget", "task": "create_media_buy", "passed": true},
    {"step": "Reject nonexistent product ID", "task": "create_media_buy", "passed": false},
    {"step": "Check capabilities", "task": "get_adcp_capabilities", "passed": true, "skipped": true, "skip_reason": "missing_tool"},
    {"step": "Seed", "task": "comply_test_controller", "passed": true, "skipped": true, "skip_reason": "missing_tool"},
    {"step": "Later", "task": "get_media_buys", "passed": false, "skipped": true, "skip_reason": "prerequisite_failed"}
  ]}]}],
  "summary": {"total_steps": 5, "steps_passed": 1, "steps_failed": 1, "steps_skipped": 3},
  "failures": [{
    "storyboard_id": "error_compliance", "step_id": "nonexistent_product", "step_title": "Reject nonexistent product ID",
    "task": "create_media_buy",
    "validation": {"check": "error_code", "description": "Error code identifies the missing product",
      "expected": ["PRODUCT_NOT_FOUND",
                   "INVALID_REQUEST"], "actual": null}
  }]
}`

func TestParseReport(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		in                      string
		err                     error // nil: parses
		passed, failed, skipped int
		failures                int
		skips                   string
	}{
		{name: "full", in: fullReport, passed: 1, failed: 1, skipped: 3, failures: 1, skips: "error_compliance: missing_tool 2, prerequisite_failed 1"},
		// security_baseline's report has no tracks, only the summary and
		// the failures.
		{name: "no tracks", in: `{"tracks": [], "summary": {"total_steps": 5, "steps_failed": 1, "steps_skipped": 4},
			"failures": [{"storyboard_id": "security_baseline", "step_id": "assert_mechanism", "task": "assert_contribution", "error": "Probe validations failed."}]}`,
			failed: 1, skipped: 4, failures: 1},
		{name: "no summary", in: `{"success": false, "error": "agent unreachable"}`, err: errNoSummary},
		{name: "not JSON", in: "Error: connect ECONNREFUSED", err: errors.New("any")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := parseReport([]byte(tc.in))
			if tc.err != nil {
				if err == nil || (errors.Is(tc.err, errNoSummary) && !errors.Is(err, errNoSummary)) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := r.Summary
			if s.StepsPassed != tc.passed || s.StepsFailed != tc.failed || s.StepsSkipped != tc.skipped || len(r.Failures) != tc.failures {
				t.Errorf("summary %+v with %d failures", *s, len(r.Failures))
			}
			if got := strings.Join(r.skipsByStoryboard(nil), "; "); got != tc.skips {
				t.Errorf("skip reasons %q, want %q", got, tc.skips)
			}
		})
	}
}

// A prerequisite_failed skip names the listed failure of its storyboard
// that caused it; other reasons and other storyboards are left as they are.
func TestSkipsAfterListedFailure(t *testing.T) {
	r, err := parseReport([]byte(fullReport))
	if err != nil {
		t.Fatal(err)
	}
	res := &result{Report: r, Kind: kindFull, Bundle: "3.0.25", Protocol: "mcp", known: []knownFailure{
		{storyboard: "error_compliance", step: "nonexistent_product", issue: "adcontextprotocol/adcp#1"},
	}}
	for _, tc := range []struct {
		name  string
		after map[string]string
		want  string
	}{
		{"listed", res.listedCauses(), "error_compliance: missing_tool 2, prerequisite_failed after known adcontextprotocol/adcp#1 1"},
		{"other storyboard", map[string]string{"idempotency": "known x"}, "error_compliance: missing_tool 2, prerequisite_failed 1"},
		{"unlisted", (&result{Report: r, Kind: kindFull}).listedCauses(), "error_compliance: missing_tool 2, prerequisite_failed 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(r.skipsByStoryboard(tc.after), "; "); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFailureString(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes
	for _, tc := range []struct {
		name string
		f    failure
		want string
	}{
		{"validation", mustFailure(t, fullReport),
			`error_compliance/nonexistent_product (create_media_buy): Error code identifies the missing product; expected ["PRODUCT_NOT_FOUND","INVALID_REQUEST"], got null`},
		{"error only", failure{StoryboardID: "s", StepID: "x", Error: "VALIDATION_ERROR:\n  bad\turl"},
			"s/x: VALIDATION_ERROR: bad url"},
		{"title only", failure{StoryboardID: "s", StepID: "x", Task: "t", StepTitle: "Do it"}, "s/x (t): Do it"},
		{"cut on a rune boundary", failure{StoryboardID: "s", StepID: "x", Error: long},
			"s/x: " + strings.Repeat("é", 150) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.String(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func mustFailure(t *testing.T, report string) failure {
	r, err := parseReport([]byte(report))
	if err != nil || len(r.Failures) == 0 {
		t.Fatalf("%v", err)
	}
	return r.Failures[0]
}

func TestPrintResults(t *testing.T) {
	good, err := parseReport([]byte(`{"summary": {"total_steps": 2, "steps_passed": 2}}`))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := parseReport([]byte(fullReport))
	if err != nil {
		t.Fatal(err)
	}
	withSigned, err := parseReport([]byte(`{"summary": {"total_steps": 3, "steps_passed": 1, "steps_failed": 2,
		"not_selected": [{"reason": "profile_excluded", "storyboard_id": "signed_requests"}, {"reason": "profile_excluded", "storyboard_id": "signed_requests"}]},
		"storyboards_missing_tools": ["get_signals_pagination_integrity"], "failures": [
		{"storyboard_id": "signed_requests", "step_id": "negative-007-missing-content-digest", "error": "got 200"},
		{"storyboard_id": "signed_requests", "step_id": "negative-025-jwk-alg-crv-mismatch", "error": "Probe validations failed."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	// The same storyboard failing for another reason is a failure.
	signedOther, err := parseReport([]byte(`{"summary": {"total_steps": 1, "steps_failed": 1}, "failures": [
		{"storyboard_id": "signed_requests", "step_id": "positive-001-basic-post", "error": "got 401 with error=\"request_signature_key_unknown\""}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a2aSigned, err := parseReport([]byte(`{"summary": {"total_steps": 1, "steps_failed": 1}, "failures": [
		{"storyboard_id": "signed_requests", "step_id": "positive-001-basic-post", "error": "request_signing_probe threw: MCP initialize precondition failed: text/plain"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	list := []knownFailure{
		{kind: kindFull, protocol: "a2a", storyboard: "signed_requests", step: "*", errorHas: "MCP initialize precondition failed", issue: "o/r#3", why: "no A2A"},
		{kind: kindFull, storyboard: "signed_requests", step: "negative-007-missing-content-digest", issue: "o/r#1", why: "digest"},
		{kind: kindFull, bundles: []string{"3.0.25"}, storyboard: "signed_requests", step: "negative-025-jwk-alg-crv-mismatch", issue: "o/r#2", why: "library"},
		{kind: kindFull, storyboard: "signed_requests", step: "negative-018-digest-covered-when-forbidden", issue: "o/r#1", why: "digest"},
		{kind: kindFull, bundles: []string{"3.1.18"}, storyboard: "x", step: "y", kitCaveat: true, why: "kit"},
	}
	run := func(bundle, protocol, kind string, rep *report) *result {
		name := fullAssessment
		if kind == kindNamed {
			name = "capability_discovery"
		}
		return &result{Bundle: bundle, Protocol: protocol, Kind: kind, Storyboard: name, Report: rep, known: list}
	}
	for _, tc := range []struct {
		name    string
		results []*result
		ok      bool
		want    []string
		wantNot []string
	}{
		{"all passed", []*result{run("3.0.25", "mcp", kindNamed, good)}, true,
			[]string{"3.0.25  mcp       capability_discovery  2       0       0        0"}, nil},
		{"a failed step", []*result{
			run("3.0.25", "mcp", kindNamed, good),
			{Bundle: "3.0.25", Protocol: "a2a", Kind: kindNamed, Storyboard: "error_compliance", Report: bad, Output: "a2a-error_compliance.json", known: list},
		}, false, []string{"total                 3       1       3", "3.0.25 a2a error_compliance: 1 failed (report: a2a-error_compliance.json)",
			"  error_compliance/nonexistent_product (create_media_buy)", "3.0.25 a2a error_compliance: skipped: error_compliance: missing_tool 2, prerequisite_failed 1"}, nil},
		// A full assessment's known failures are listed with their
		// upstream issue, not counted, and do not fail the run; the
		// entries of its bundle and protocol it did not meet are stale;
		// those of another bundle are not.
		{"known failures", []*result{run("3.0.25", "mcp", kindFull, withSigned)}, true, []string{
			"3.0.25  mcp       (full assessment)  1       0       0        2",
			"3.0.25 mcp (full assessment): known, not counted: signed_requests negative-007-missing-content-digest (1) [o/r#1]: digest",
			"3.0.25 mcp (full assessment): known, not counted: signed_requests negative-025-jwk-alg-crv-mismatch (1) [o/r#2]: library",
			"stale known failure (no run it applies to failed it: remove it from known.go): signed_requests negative-018-digest-covered-when-forbidden [o/r#1]",
			"3.0.25 mcp (full assessment): not run, tools the seller does not serve: get_signals_pagination_integrity",
			"3.0.25 mcp (full assessment): not selected: signed_requests: profile_excluded 2",
		}, []string{"stale known failure (no run it applies to failed it: remove it from known.go): x y", "signed_requests * "}},
		// An entry of another bundle does not apply.
		{"known only in its bundles", []*result{run("3.2.0-beta.5", "mcp", kindFull, withSigned)}, false, []string{
			"3.2.0-beta.5 mcp (full assessment): 1 failed",
			"  signed_requests/negative-025-jwk-alg-crv-mismatch",
		}, nil},
		// An entry with a text of the error explains only the failures
		// whose error has it, over its protocol only.
		{"known only for its error", []*result{run("3.0.25", "mcp", kindFull, signedOther)}, false, []string{
			"3.0.25 mcp (full assessment): 1 failed",
		}, nil},
		{"known on its protocol", []*result{run("3.0.25", "a2a", kindFull, a2aSigned)}, true, []string{
			"3.0.25 a2a (full assessment): known, not counted: signed_requests * (1) [o/r#3]: no A2A",
		}, nil},
		{"known only on its protocol", []*result{run("3.0.25", "mcp", kindFull, a2aSigned)}, false, []string{
			"3.0.25 mcp (full assessment): 1 failed",
		}, nil},
		{"a broken run", []*result{{Bundle: "3.0.25", Protocol: "a2a", Kind: kindFull, Storyboard: fullAssessment, Err: errNoSummary, Output: "x.json"}}, false,
			[]string{"(run failed)", "3.0.25 a2a (full assessment): run failed: no summary"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			ok := printResults(&out, tc.results, &config{verbose: true}, time.Second)
			if ok != tc.ok {
				t.Errorf("ok = %v, want %v", ok, tc.ok)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(out.String(), w) {
					t.Errorf("output has %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// The kit's caveats say so instead of naming an issue.
func TestKnownSource(t *testing.T) {
	if got := (knownFailure{issue: "o/r#1"}).source(); got != "o/r#1" {
		t.Errorf("issue: %s", got)
	}
	if got := (knownFailure{kitCaveat: true}).source(); !strings.Contains(got, "kit") {
		t.Errorf("kit caveat: %s", got)
	}
	if got := (knownFailure{offline: true}).source(); !strings.Contains(got, "internet") {
		t.Errorf("offline: %s", got)
	}
	// Every entry of every runner version names its issue, or is a caveat
	// of the kit or of an offline machine, and says why.
	for version, list := range knownFailures {
		for _, k := range list {
			if (k.issue == "" && !k.kitCaveat && !k.offline) || k.why == "" || k.storyboard == "" || k.step == "" {
				t.Errorf("%s: entry %+v lacks its issue, reason or step", version, k)
			}
		}
	}
}

func TestParseFlags(t *testing.T) {
	t.Setenv("CONFORMANCE_AGENT", "http://127.0.0.1:9/")
	t.Setenv("CONFORMANCE_AUTH", "k")
	t.Setenv("ADCP_CONFORMANCE_DIR", "/kits")
	cfg, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.agentURL != "http://127.0.0.1:9/" || cfg.auth != "k" || cfg.kitDir != "/kits" || cfg.seller != "go" || !cfg.full || !cfg.governance ||
		!cfg.fuzz || !cfg.grade || cfg.fuzzSeed != 42 || cfg.parallel != 3 || strings.Join(cfg.protocols, ",") != "mcp,a2a" ||
		len(cfg.storyboards) != 0 || len(cfg.bundles) != 0 {
		t.Errorf("defaults: %+v", cfg)
	}
	cfg, err = parseFlags([]string{"-protocols", " a2a ", "-storyboards", "idempotency,,security_baseline", "-bundles", "3.0.25"}, io.Discard)
	if err != nil || strings.Join(cfg.protocols, ",") != "a2a" || strings.Join(cfg.storyboards, ",") != "idempotency,security_baseline" ||
		strings.Join(cfg.bundles, ",") != "3.0.25" {
		t.Errorf("lists: %+v, %v", cfg, err)
	}
	for _, args := range [][]string{{"-protocols", "mcp,grpc"}, {"extra"}, {"-nope"}, {"-parallel", "0"}, {"-runner-clock", "March"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

func TestParseFuzz(t *testing.T) {
	var f fuzzResult
	err := f.parse([]byte(`{"totalRuns": 241, "totalFailures": 3,
	  "perTool": {"get_products": {"runs": 50}, "get_signals": {"runs": 0, "skipped": true, "skipReason": "feature_unsupported"}},
	  "seedWarnings": [{"seeder": "sync_creatives", "reason": "no format"}],
	  "failures": [
	    {"tool": "tasks_get", "verdict": "invalid", "invariantFailures": ["error envelope missing reason code", "context not echoed"], "response": {"error": "MCP error -32602"}},
	    {"tool": "preview_creative", "verdict": "invalid", "response": {"error": "MCP error -32602: unknown tool"}}],
	  "uniformError": [{"tool": "tasks_get", "verdict": "pass"}, {"tool": "get_media_buy_delivery", "verdict": "fail", "differences": ["body length"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := fuzzResult{Runs: 241,
		Failures:     []string{"tasks_get (invalid): error envelope missing reason code; context not echoed", "preview_creative (invalid): MCP error -32602: unknown tool", "and 1 more"},
		Uniform:      []string{"get_media_buy_delivery: [body length]"},
		Skipped:      []string{"get_signals (feature_unsupported)"},
		SeedWarnings: []string{"sync_creatives: no format"},
	}
	if fmt.Sprint(f) != fmt.Sprint(want) {
		t.Errorf("got  %+v\nwant %+v", f, want)
	}
	if !f.failed() {
		t.Error("not failed")
	}
	var out bytes.Buffer
	f.Bundle, f.Protocol = "3.0.25", "mcp"
	if printFuzz(&out, []*fuzzResult{&f}) || !strings.Contains(out.String(), "fuzz 3.0.25 mcp: 241 runs, 3 failures, 1 uniform-error probes failed") {
		t.Errorf("printed:\n%s", out.String())
	}
	for _, bad := range []string{`{"failures": []}`, "Error: fetch failed"} {
		if err := new(fuzzResult).parse([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
