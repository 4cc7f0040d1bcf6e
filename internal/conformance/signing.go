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
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

// Signed agents (issue 20): the signing storyboards, and the SDK's grader
// of request-signing verifiers.

// storyboardUngradable are the signed_requests vectors @adcp/sdk 6.11's
// storyboard dispatch cannot grade against one agent URL, which the grader
// runs grade instead (gradeRuns):
//   - 007 and 018 assert opposite covers_content_digest postures on the
//     same URL, and the dispatch never forwards the agent's
//     (adcontextprotocol/adcp-client#2993): one of them fails on any
//     agent;
//   - 025 ships its own JWK and is graded in the SDK's library, never
//     reaching the agent, which reports HTTP 0 to a step expecting 401
//     (adcontextprotocol/adcp-client#2955): it fails on any agent.
var storyboardUngradable = []string{"007-missing-content-digest", "018-digest-covered-when-forbidden", "025-jwk-alg-crv-mismatch"}

// storyboardOptions are the comply() options a storyboard needs that the
// CLI cannot pass (storyboard.mjs runs it then): signed_requests skips
// storyboardUngradable; webhook_emission verifies webhook signatures with
// the key the seller's brand.json names (without, its signature phase is
// not applicable and skipped).
func storyboardOptions(storyboard string, a *agent) map[string]any {
	switch storyboard {
	case "signed_requests":
		return map[string]any{"request_signing": map[string]any{"skipVectors": storyboardUngradable}}
	case "webhook_emission":
		return map[string]any{"webhook_brand_json_url": a.BaseURL + "/.well-known/brand.json"}
	}
	return nil
}

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
	{"raw transport, every vector but 007 and 018 (\"either\")", "/mcp", []string{"--skip", "007-missing-content-digest,018-digest-covered-when-forbidden"}},
	{"raw transport, 007 (covers_content_digest \"required\")", "/signing/required", []string{"--only", "007-missing-content-digest,002-post-with-content-digest"}},
	{"raw transport, 018 (covers_content_digest \"forbidden\")", "/signing/forbidden", []string{"--only", "018-digest-covered-when-forbidden,001-basic-post"}},
	{"MCP transport, the /mcp endpoint's gate", "/mcp", []string{"--transport", "mcp", "--skip", "007-missing-content-digest,018-digest-covered-when-forbidden"}},
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
func runGrader(ctx context.Context, env *jsinterop.Env, a *agent, run gradeRun, outDir string, n int) *gradeResult {
	res := &gradeResult{Run: run}
	args := append([]string{cli, "grade", "request-signing", a.BaseURL + run.Path, "--allow-http", "--json"}, run.Args...)
	cmd := exec.CommandContext(ctx, env.Node, args...)
	cmd.Dir = env.Dir
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

// gradeAll runs gradeRuns, each on a fresh seller from src.
func gradeAll(ctx context.Context, env *jsinterop.Env, src *sellers, cfg *config) ([]*gradeResult, error) {
	var out []*gradeResult
	for i, run := range gradeRuns {
		a, err := src.start(ctx)
		if err != nil {
			return nil, err
		}
		runCtx, cancel := context.WithTimeout(ctx, cfg.timeout)
		out = append(out, runGrader(runCtx, env, a, run, cfg.out, i+1))
		cancel()
		a.stop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return out, nil
}

// printGrades writes the grader's counts per run, the vectors no run
// passed (beside those the grader cannot send, 026: a U-label host never
// leaves an HTTP client as one), and each failed vector; it reports
// whether every run passed and every vector passed in one.
func printGrades(w io.Writer, results []*gradeResult) bool {
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
	var missing, notSent []string
	for id := range all {
		switch {
		case passed[id]:
		case ungradable[id] != "":
			notSent = append(notSent, id)
		default:
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	sort.Strings(notSent)
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
