package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

// cli is the runner's entry point inside the pinned package.
const cli = "node_modules/@adcp/sdk/bin/adcp.js"

// The kinds of run.
const (
	// kindFull is the full assessment: no storyboard named, the agent's
	// capabilities decide which run.
	kindFull = "full"
	// kindNamed is one storyboard or bundle named.
	kindNamed = "named"
	// kindGovernance is the governance storyboards with multi-agent
	// routing and a governance agent on loopback.
	kindGovernance = "governance"
)

// fullAssessment is what a full assessment's result is called.
const fullAssessment = "(full assessment)"

// result is one storyboard's run over one protocol.
type result struct {
	Protocol   string
	Kind       string
	Storyboard string
	Report     *report // nil when Err is set
	Err        error   // the run itself failed (no usable report)
	Duration   time.Duration
	// Output is where the runner's JSON (and stderr) were kept.
	Output string
}

// failed reports whether the run failed or any of its steps did, known
// failures aside.
func (r *result) failed() bool { return r.Err != nil || len(r.unexpected()) > 0 }

// unexpected are the failed steps no known failure explains.
func (r *result) unexpected() []failure {
	var out []failure
	for _, f := range r.Report.Failures {
		if _, ok := known(r.Kind, f); !ok {
			out = append(out, f)
		}
	}
	return out
}

// knownCount counts the failed steps known failures explain.
func (r *result) knownCount() int {
	if r.Err != nil {
		return 0
	}
	return len(r.Report.Failures) - len(r.unexpected())
}

// runnerClockScript is the preload (node --import) that starts the
// runner's clock at $ADCP_RUNNER_CLOCK, next to this program's sources.
const runnerClockScript = "runnerclock.mjs"

// DefaultRunnerClock is where the runner's clock starts: before every
// flight date the storyboards of @adcp/sdk 6.11 carry (the earliest starts
// on 2026-04-01), so the runner sends them as written. On a clock past a
// step's start_time the runner makes up "now + 1 day" at each call, and an
// idempotent replay differs from its first call by the milliseconds
// between them (README.md, idempotency).
const DefaultRunnerClock = "2026-03-01T00:00:00Z"

// runSpec is one storyboard run over one protocol.
type runSpec struct {
	protocol, storyboard string
	// probeTask, when set, runs storyboard.mjs with a test kit.
	probeTask string
	// clock is where the runner's clock starts ("" keeps the real one).
	clock  string
	outDir string
	// timeout is the runner's own limit for a full assessment.
	timeout time.Duration
	// options are comply() options the CLI cannot pass (storyboardOptions);
	// with any, storyboard.mjs runs the storyboard.
	options map[string]any
}

// runStoryboard runs `adcp storyboard run` for one storyboard over one
// protocol and reads its JSON report. The runner's exit status is not
// used: it is 0 for some runs with failed steps. With a probe task, it runs
// storyboard.mjs instead: the same comply() call plus a test kit declaring
// the API key and that protected probe task, which the CLI cannot pass.
// With a clock, node preloads runnerclock.mjs, which starts the runner's
// Date there.
func runStoryboard(ctx context.Context, env *jsinterop.Env, a *agent, spec runSpec) *result {
	protocol, storyboard, probeTask, outDir := spec.protocol, spec.storyboard, spec.probeTask, spec.outDir
	res := &result{Protocol: protocol, Storyboard: storyboard, Kind: kindNamed}
	args := []string{cli, "storyboard", "run", a.url(protocol)}
	if storyboard == fullAssessment {
		// No storyboard named: the agent's capabilities decide, as the
		// assessment an agent is listed by runs; the runner's own limit
		// (120 s by default) would cut it short.
		res.Kind = kindFull
		args = append(args, "--timeout", strconv.Itoa(int(spec.timeout.Seconds())))
	} else {
		args = append(args, storyboard)
	}
	args = append(args,
		"--protocol", protocol,
		"--allow-http",       // loopback agent
		"--json",             // the report on stdout
		"--webhook-receiver", // a loopback receiver, so webhook steps are graded, not skipped
	)
	if a.APIKey != "" {
		args = append(args, "--auth", a.APIKey)
	}
	if probeTask != "" || len(spec.options) > 0 {
		o := map[string]any{"agent": a.url(protocol), "storyboard": storyboard, "protocol": protocol, "auth": a.APIKey}
		if probeTask != "" {
			o["test_kit"] = map[string]any{"auth": map[string]string{"api_key": a.APIKey, "probe_task": probeTask}}
		}
		for k, v := range spec.options {
			o[k] = v
		}
		opts, err := json.Marshal(o)
		if err != nil {
			res.Err = err
			return res
		}
		args = []string{"storyboard.mjs", string(opts)}
	}
	stdout, stderr, elapsed, runErr := node(ctx, env, spec.clock, nil, args)
	res.Duration = elapsed
	return res.read(ctx, outDir, protocol+"-"+fileName(storyboard), stdout, stderr, runErr)
}

// fileName is a run's name as a file name.
func fileName(name string) string {
	return strings.NewReplacer("/", "_", "(", "", ")", "", " ", "-").Replace(name)
}

// node runs node with args in the package directory, the runner's clock
// started at clock (unless ""), env added to the environment.
func node(ctx context.Context, env *jsinterop.Env, clock string, extraEnv []string, args []string) (stdout, stderr []byte, elapsed time.Duration, err error) {
	cmd := exec.CommandContext(ctx, env.Node, args...)
	cmd.Dir = env.Dir
	cmd.Env = append(os.Environ(), extraEnv...)
	if clock != "" {
		script := filepath.Join(filepath.Dir(env.Dir), "conformance", runnerClockScript)
		cmd.Args = append([]string{env.Node, "--import", (&url.URL{Scheme: "file", Path: script}).String()}, args...)
		cmd.Env = append(cmd.Env, "ADCP_RUNNER_CLOCK="+clock)
	}
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), time.Since(start), err
}

// read keeps the runner's output under outDir/name.json (and .stderr) and
// reads its report.
func (res *result) read(ctx context.Context, outDir, name string, stdout, stderr []byte, runErr error) *result {
	base := filepath.Join(outDir, name)
	res.Output = base + ".json"
	if err := os.WriteFile(res.Output, stdout, 0o644); err != nil {
		res.Err = err
		return res
	}
	os.WriteFile(base+".stderr", stderr, 0o644)

	rep, err := parseReport(stdout)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		} else if runErr != nil {
			err = fmt.Errorf("%w (runner: %w)", err, runErr)
		}
		res.Err = fmt.Errorf("%w; stderr: %s", err, oneLine(lastLines(string(stderr), 5)))
		return res
	}
	res.Report = rep
	return res
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
