package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Signed agents (issue 20): the runner's grader of request-signing
// verifiers, beside the full assessment's signed_requests storyboard.

// gradeRun is one run of `adcp grade request-signing`.
type gradeRun struct {
	// Name says what the run grades.
	Name string
	// Path is the agent path graded; Args the grader's flags.
	Path string
	Args []string
}

// gradeRuns grade every request-signing vector between them against
// examples/seller -sandbox, each on a fresh seller (vector 020 fills the
// runner key's replay cap): the raw transport posting to the
// per-operation grading endpoints under /mcp (where the storyboard posts),
// covers_content_digest "either", every vector but the two of the strict
// postures, which the /signing/required and /signing/forbidden endpoints
// grade; and the MCP transport, through the MCP endpoint's own gate.
var gradeRuns = []gradeRun{
	{"raw transport, every vector but 007 and 018 (\"either\")", "/mcp", []string{"--transport", "raw", "--skip", "007-missing-content-digest,018-digest-covered-when-forbidden"}},
	{"raw transport, 007 (covers_content_digest \"required\")", "/signing/required", []string{"--transport", "raw", "--only", "007-missing-content-digest,002-post-with-content-digest"}},
	{"raw transport, 018 (covers_content_digest \"forbidden\")", "/signing/forbidden", []string{"--transport", "raw", "--only", "018-digest-covered-when-forbidden,001-basic-post"}},
	{"MCP transport, the /mcp endpoint's gate", "/mcp", []string{"--transport", "mcp", "--skip", "007-missing-content-digest,018-digest-covered-when-forbidden"}},
}

// capabilitySkips are the request-signing vectors whose verifier posture
// the seller does not declare, which the grader would skip as
// capability_profile_mismatch could the CLI tell it the seller's
// capability (only its covers_content_digest can be), and why: a vector
// that needs protocol methods the seller does not require signed (028,
// tasks/cancel, where request_signing.protocol_methods_required_for
// exists: AdCP 3.1 and later).
func capabilitySkips(k *kit, caps *sellerCaps) (ids, why []string) {
	dir := filepath.Join(k.cacheDir(k.Bundles[len(k.Bundles)-1]), "test-vectors", "request-signing", "negative")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var v struct {
			Capability struct {
				ProtocolMethodsRequiredFor []string `json:"protocol_methods_required_for"`
			} `json:"verifier_capability"`
		}
		if json.Unmarshal(data, &v) != nil {
			continue
		}
		for _, m := range v.Capability.ProtocolMethodsRequiredFor {
			if !slices.Contains(caps.ProtocolMethodsRequiredFor, m) {
				id := strings.TrimSuffix(filepath.Base(f), ".json")
				ids = append(ids, id)
				why = append(why, fmt.Sprintf("%s: it needs %s in request_signing.protocol_methods_required_for, which the seller does not declare", id, m))
				break
			}
		}
	}
	return ids, why
}

// withSkips adds ids to a grade run's --skip list, or to none when the
// run names its vectors (--only).
func withSkips(args, ids []string) []string {
	if len(ids) == 0 || slices.Contains(args, "--only") {
		return args
	}
	out := slices.Clone(args)
	if i := slices.Index(out, "--skip"); i >= 0 && i+1 < len(out) {
		out[i+1] += "," + strings.Join(ids, ",")
		return out
	}
	return append(out, "--skip", strings.Join(ids, ","))
}

// gradeReport is the grader's --json report.
type gradeReport struct {
	Passed       bool          `json:"passed"`
	PassedCount  int           `json:"passed_count"`
	FailedCount  int           `json:"failed_count"`
	SkippedCount int           `json:"skipped_count"`
	Positive     []gradeVector `json:"positive"`
	Negative     []gradeVector `json:"negative"`
}

type gradeVector struct {
	ID         string `json:"vector_id"`
	Kind       string `json:"kind"`
	Passed     bool   `json:"passed"`
	Skipped    bool   `json:"skipped"`
	SkipReason string `json:"skip_reason"`
	HTTPStatus int    `json:"http_status"`
	Diagnostic string `json:"diagnostic"`
}

// gradeResult is one run's outcome.
type gradeResult struct {
	Run      gradeRun
	Report   *gradeReport
	Err      error
	Duration time.Duration
	Output   string
}

// runGrader runs one grade against a.
func runGrader(ctx context.Context, k *kit, a *agent, run gradeRun, outDir string, n int) *gradeResult {
	res := &gradeResult{Run: run}
	args := append([]string{cli, "grade", "request-signing", a.BaseURL + run.Path, "--allow-http", "--json"}, run.Args...)
	cmd := exec.CommandContext(ctx, k.Node, args...)
	cmd.Dir = k.Dir
	if k.ExtraCA != "" {
		cmd.Env = append(os.Environ(), "NODE_EXTRA_CA_CERTS="+k.ExtraCA)
	}
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run()
	res.Duration = time.Since(start)
	res.Output = filepath.Join(outDir, fmt.Sprintf("grade-request-signing-%d.json", n))
	if err := os.WriteFile(res.Output, stdout.Bytes(), 0o644); err != nil {
		res.Err = err
		return res
	}
	var rep gradeReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		if runErr != nil {
			err = fmt.Errorf("%w (grader: %w)", err, runErr)
		}
		res.Err = fmt.Errorf("%w; stderr: %s", err, oneLine(lastLines(stderr.String(), 5)))
		return res
	}
	res.Report = &rep
	return res
}

// printGrades writes the grader's counts per run, the vectors no run
// passed (beside those the grader cannot send, 026: a U-label host never
// leaves an HTTP client as one, and the notApplicable ones the runs
// skipped, capabilitySkips), and each failed vector; it reports whether
// every run passed and every vector passed in one.
func printGrades(w io.Writer, results []*gradeResult, notApplicable []string) bool {
	fmt.Fprintln(w, "\nadcp grade request-signing against examples/seller -sandbox:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "run\tpassed\tfailed\tskipped\ttime\t")
	ok := true
	passed := map[string]bool{}
	library := map[string]bool{} // passed in the SDK's own library, the agent never asked
	ungradable := map[string]string{}
	all := map[string]bool{}
	for _, r := range results {
		if r.Err != nil {
			ok = false
			fmt.Fprintf(tw, "%s\t-\t-\t-\t%.1fs\t(run failed)\n", r.Run.Name, r.Duration.Seconds())
			continue
		}
		if !r.Report.Passed || r.Report.FailedCount > 0 {
			ok = false
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1fs\t\n", r.Run.Name, r.Report.PassedCount, r.Report.FailedCount, r.Report.SkippedCount, r.Duration.Seconds())
		for _, v := range append(append([]gradeVector(nil), r.Report.Positive...), r.Report.Negative...) {
			id := v.Kind + "/" + v.ID
			all[id] = true
			switch {
			case v.Passed && !v.Skipped:
				passed[id] = true
				if v.HTTPStatus == 0 {
					library[id] = true
				}
			case v.Skipped && v.SkipReason == "transport_ungradable":
				ungradable[id] = v.SkipReason
			}
		}
	}
	tw.Flush()
	var missing, notSent, notApplied []string
	for id := range all {
		switch {
		case passed[id]:
		case slices.Contains(notApplicable, strings.TrimPrefix(strings.TrimPrefix(id, "negative/"), "positive/")):
			notApplied = append(notApplied, id)
		case ungradable[id] != "":
			notSent = append(notSent, id)
		default:
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	sort.Strings(notSent)
	sort.Strings(notApplied)
	var inLibrary []string
	for id := range library {
		inLibrary = append(inLibrary, id)
	}
	sort.Strings(inLibrary)
	fmt.Fprintf(w, "vectors passed in some run: %d of %d", len(passed), len(all))
	if len(notSent) > 0 {
		fmt.Fprintf(w, "; the grader cannot send %s", strings.Join(notSent, ", "))
	}
	if len(inLibrary) > 0 {
		fmt.Fprintf(w, "; %s graded in the SDK's own verifier (the vector brings its own JWK)", strings.Join(inLibrary, ", "))
	}
	if len(notApplied) > 0 {
		fmt.Fprintf(w, "; not applicable to the seller's capabilities: %s", strings.Join(notApplied, ", "))
	}
	fmt.Fprintln(w)
	if len(missing) > 0 {
		ok = false
		fmt.Fprintf(w, "vectors no run passed: %s\n", strings.Join(missing, ", "))
	}
	for _, r := range results {
		switch {
		case r.Err != nil:
			fmt.Fprintf(w, "\n%s: run failed: %v\n  output: %s\n", r.Run.Name, r.Err, r.Output)
		case r.Report.FailedCount > 0:
			fmt.Fprintf(w, "\n%s: %d failed (report: %s)\n", r.Run.Name, r.Report.FailedCount, r.Output)
			for _, v := range append(append([]gradeVector(nil), r.Report.Positive...), r.Report.Negative...) {
				if !v.Passed && !v.Skipped {
					fmt.Fprintf(w, "  %s/%s: %s\n", v.Kind, v.ID, v.Diagnostic)
				}
			}
		}
	}
	return ok
}
