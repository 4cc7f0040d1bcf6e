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
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

// cli is the runner's entry point inside the pinned package.
const cli = "node_modules/@adcp/sdk/bin/adcp.js"

// result is one storyboard's run over one protocol.
type result struct {
	Protocol   string
	Storyboard string
	Report     *report // nil when Err is set
	Err        error   // the run itself failed (no usable report)
	Duration   time.Duration
	// Output is where the runner's JSON (and stderr) were kept.
	Output string
}

// failed reports whether the run failed or any of its steps did.
func (r *result) failed() bool { return r.Err != nil || r.Report.Summary.StepsFailed > 0 }

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
	res := &result{Protocol: protocol, Storyboard: storyboard}
	args := []string{cli, "storyboard", "run", a.url(protocol), storyboard,
		"--protocol", protocol,
		"--allow-http",       // loopback agent
		"--json",             // the report on stdout
		"--webhook-receiver", // a loopback receiver, so webhook steps are graded, not skipped
	}
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
	cmd := exec.CommandContext(ctx, env.Node, args...)
	cmd.Dir = env.Dir
	if spec.clock != "" {
		script := filepath.Join(filepath.Dir(env.Dir), "conformance", runnerClockScript)
		cmd.Args = append([]string{env.Node, "--import", (&url.URL{Scheme: "file", Path: script}).String()}, args...)
		cmd.Env = append(os.Environ(), "ADCP_RUNNER_CLOCK="+spec.clock)
	}
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run()
	res.Duration = time.Since(start)

	base := filepath.Join(outDir, protocol+"-"+strings.ReplaceAll(storyboard, "/", "_"))
	res.Output = base + ".json"
	if err := os.WriteFile(res.Output, stdout.Bytes(), 0o644); err != nil {
		res.Err = err
		return res
	}
	os.WriteFile(base+".stderr", stderr.Bytes(), 0o644)

	rep, err := parseReport(stdout.Bytes())
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		} else if runErr != nil {
			err = fmt.Errorf("%w (runner: %w)", err, runErr)
		}
		res.Err = fmt.Errorf("%w; stderr: %s", err, oneLine(lastLines(stderr.String(), 5)))
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
