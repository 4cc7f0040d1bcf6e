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
)

// cli is the runner's entry point inside the kit.
const cli = "node_modules/@adcp/sdk/bin/adcp.js"

// The kinds of run.
const (
	// kindFull is the full assessment: no storyboard named, the agent's
	// capabilities decide which run.
	kindFull = "full"
	// kindNamed is storyboards or bundles named (-storyboards).
	kindNamed = "named"
	// kindGovernance is the governance storyboards with multi-agent
	// routing and a governance agent on loopback.
	kindGovernance = "governance"
)

// fullAssessment is what a full assessment's result is called.
const fullAssessment = "(full assessment)"

// result is one run of storyboards over one protocol on one bundle.
type result struct {
	Bundle     string
	Protocol   string
	Kind       string
	Storyboard string
	Report     *report // nil when Err is set
	Err        error   // the run itself failed (no usable report)
	Duration   time.Duration
	// Output is where the runner's JSON (and stderr) were kept.
	Output string
	// known lists the known failures the run is checked against.
	known []knownFailure
}

// failed reports whether the run failed or any of its steps did, known
// failures aside.
func (r *result) failed() bool { return r.Err != nil || len(r.unexpected()) > 0 }

// unexpected are the failed steps no known failure explains.
func (r *result) unexpected() []failure {
	var out []failure
	for _, f := range r.Report.Failures {
		if _, ok := r.match(f); !ok {
			out = append(out, f)
		}
	}
	return out
}

// match is the known failure f is counted under.
func (r *result) match(f failure) (knownFailure, bool) {
	return knownIn(r.known, r.Kind, r.Bundle, r.Protocol, f)
}

// listedCauses names, per storyboard, the first listed (known or open)
// failure of its steps, for the skips that follow it.
func (r *result) listedCauses() map[string]string {
	out := map[string]string{}
	for _, f := range r.Report.Failures {
		if k, ok := r.match(f); ok && out[f.StoryboardID] == "" {
			label := "known "
			if k.open {
				label = "open "
			}
			out[f.StoryboardID] = label + k.issue
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

// DefaultRunnerClock is where the runner's clock starts: before the flight
// dates the storyboards carry (the earliest 2026-03-15; the 2020 and 2024
// ones are past on purpose), so the runner sends them as written. On a
// clock past a step's start_time the runner makes up "now + 1 day" at
// each call, and an idempotent replay differs from its first call by the
// milliseconds between them (README.md, idempotency).
const DefaultRunnerClock = "2026-03-01T00:00:00Z"

// runSpec is one run of the runner.
type runSpec struct {
	bundle, protocol string
	// storyboards are the ids named; none is the full assessment.
	storyboards []string
	// clock is where the runner's clock starts ("" keeps the real one).
	clock  string
	outDir string
	// timeout is the runner's own budget for the run.
	timeout time.Duration
	// testKit is the test kit file the run loads ("" for none).
	testKit string
}

// name is the run's name in the report.
func (s runSpec) name() string {
	if len(s.storyboards) == 0 {
		return fullAssessment
	}
	return strings.Join(s.storyboards, ",")
}

// runStoryboards runs `adcp storyboard run` over one protocol on one
// bundle and reads its JSON report. With no storyboard named it is the
// full assessment: the agent's get_adcp_capabilities decides what runs,
// as the assessment an agent is listed by does. The runner's exit status
// is not used: it is 0 for some runs with failed steps.
func runStoryboards(ctx context.Context, k *kit, a *agent, spec runSpec) *result {
	res := &result{Bundle: spec.bundle, Protocol: spec.protocol, Kind: kindFull, Storyboard: spec.name()}
	args := []string{cli, "storyboard", "run", a.url(spec.protocol)}
	if len(spec.storyboards) > 0 {
		res.Kind = kindNamed
		args = append(args, "--storyboards", strings.Join(spec.storyboards, ","))
	}
	args = append(args,
		"--compliance-version", spec.bundle,
		"--protocol", spec.protocol,
		// The runner's own budget (10 s a storyboard by default) would
		// cut a full assessment short.
		"--timeout", strconv.Itoa(int(spec.timeout.Seconds())),
		"--allow-http",       // a loopback agent
		"--json",             // the report on stdout
		"--webhook-receiver", // a loopback receiver, so webhook steps are graded, not skipped
	)
	if a.APIKey != "" {
		args = append(args, "--auth", a.APIKey)
	}
	if spec.testKit != "" {
		args = append(args, "--test-kit", spec.testKit)
	}
	stdout, stderr, elapsed, runErr := node(ctx, k, spec.clock, nil, args)
	res.Duration = elapsed
	return res.read(ctx, spec.outDir, spec.bundle+"-"+spec.protocol+"-"+fileName(res.Storyboard), stdout, stderr, runErr)
}

// fileName is a run's name as a file name.
func fileName(name string) string {
	return strings.NewReplacer("/", "_", "(", "", ")", "", " ", "-", ",", "+").Replace(name)
}

// node runs node with args in the kit's directory, the runner's clock
// started at clock (unless ""), env added to the environment.
func node(ctx context.Context, k *kit, clock string, extraEnv []string, args []string) (stdout, stderr []byte, elapsed time.Duration, err error) {
	cmd := exec.CommandContext(ctx, k.Node, args...)
	cmd.Dir = k.Dir
	cmd.Env = append(os.Environ(), extraEnv...)
	if k.ExtraCA != "" {
		cmd.Env = append(cmd.Env, "NODE_EXTRA_CA_CERTS="+k.ExtraCA)
	}
	if clock != "" {
		script := filepath.Join(k.Scripts, runnerClockScript)
		cmd.Args = append([]string{k.Node, "--import", (&url.URL{Scheme: "file", Path: script}).String()}, args...)
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

// contractsScript runs storyboards with the runner contracts the CLI
// cannot configure; it runs in the kit's folder, where it finds the
// kit's @adcp/sdk.
const contractsScript = "contracts.mjs"

// contractsStoryboards are the storyboards whose phases need a contract
// the CLI cannot configure: webhook_emission's signature_validity
// (webhook_signing, the seller's keys from its brand.json) and
// idempotency's concurrent_retry (parallel_dispatch_runner). The full
// assessment skips those phases (unsatisfied_contract, not_applicable).
var contractsStoryboards = []string{"webhook_emission", "idempotency"}

// runContracts runs contractsStoryboards over spec's protocol on spec's
// bundle through contracts.mjs, with the runner contracts the full
// assessment lacks.
func runContracts(ctx context.Context, k *kit, a *agent, spec runSpec, liveKey string) *result {
	res := &result{Bundle: spec.bundle, Protocol: spec.protocol, Kind: kindNamed, Storyboard: "(runner contracts) " + strings.Join(contractsStoryboards, ",")}
	if err := copyFile(filepath.Join(k.Scripts, contractsScript), filepath.Join(k.Dir, contractsScript)); err != nil {
		res.Err = err
		return res
	}
	opts, err := json.Marshal(map[string]any{
		"agent":          a.url(spec.protocol),
		"storyboards":    contractsStoryboards,
		"version":        spec.bundle,
		"protocol":       spec.protocol,
		"auth":           a.APIKey,
		"timeout_ms":     spec.timeout.Milliseconds(),
		"brand_json_url": a.BaseURL + "/.well-known/brand.json",
		"test_kit":       map[string]any{"auth": map[string]string{"api_key": liveKey, "probe_task": "list_creatives"}},
	})
	if err != nil {
		res.Err = err
		return res
	}
	stdout, stderr, elapsed, runErr := node(ctx, k, spec.clock, nil, []string{contractsScript, string(opts)})
	res.Duration = elapsed
	return res.read(ctx, spec.outDir, spec.bundle+"-"+spec.protocol+"-contracts", stdout, stderr, runErr)
}
