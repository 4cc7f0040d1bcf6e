package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// fuzzResult is one `adcp fuzz` run over one protocol.
type fuzzResult struct {
	Bundle   string
	Protocol string
	Seed     int64
	Runs     int
	Failures []string // tool: why, one line each
	// Uniform lists the uniform-error probes that failed (tool: why).
	Uniform []string
	// Skipped lists the tools not fuzzed ("tool (reason)"), and
	// SeedWarnings the entities -auto-seed could not create
	// ("seeder: reason").
	Skipped, SeedWarnings []string
	Err                   error
	Duration              time.Duration
	Output                string
}

// failed reports a run that broke or found anything.
func (f *fuzzResult) failed() bool { return f.Err != nil || len(f.Failures) > 0 || len(f.Uniform) > 0 }

// fuzzReport is the part of `adcp fuzz --format json` this program reads.
type fuzzReport struct {
	TotalRuns     *int `json:"totalRuns"`
	TotalFailures int  `json:"totalFailures"`
	Failures      []struct {
		Tool              string   `json:"tool"`
		Verdict           string   `json:"verdict"`
		InvariantFailures []string `json:"invariantFailures"`
		Response          struct {
			Error string `json:"error"`
		} `json:"response"`
	} `json:"failures"`
	PerTool map[string]struct {
		Skipped    bool   `json:"skipped"`
		SkipReason string `json:"skipReason"`
	} `json:"perTool"`
	SeedWarnings []struct {
		Seeder string `json:"seeder"`
		Reason string `json:"reason"`
	} `json:"seedWarnings"`
	UniformError []struct {
		Tool        string   `json:"tool"`
		Verdict     string   `json:"verdict"`
		Differences []string `json:"differences"`
	} `json:"uniformError"`
}

// runFuzz runs the runner's property-based fuzzer against the agent over
// protocol, with bundle's schemas: every tool of the tiers it knows,
// schema-valid inputs, each answer checked (a valid response or a
// well-formed AdCP error), the uniform-error probes, and with --auto-seed
// the update tier on entities it creates first. A fixed seed makes runs
// repeatable.
func runFuzz(ctx context.Context, k *kit, a *agent, bundle, protocol string, seed int64, budget int, outDir string) *fuzzResult {
	res := &fuzzResult{Bundle: bundle, Protocol: protocol, Seed: seed}
	args := []string{cli, "fuzz", a.url(protocol), "--protocol", protocol, "--schema-version", bundle, "--auth-token", a.APIKey,
		"--seed", strconv.FormatInt(seed, 10), "--turn-budget", strconv.Itoa(budget), "--auto-seed", "--format", "json"}
	stdout, stderr, elapsed, runErr := node(ctx, k, "", nil, args)
	res.Duration = elapsed
	base := filepath.Join(outDir, bundle+"-"+protocol+"-fuzz")
	res.Output = base + ".json"
	os.WriteFile(res.Output, stdout, 0o644)
	os.WriteFile(base+".stderr", stderr, 0o644)
	if err := res.parse(stdout); err != nil {
		res.Err = fmt.Errorf("%w (fuzzer: %v); stderr: %s", err, runErr, oneLine(lastLines(string(stderr), 5)))
	}
	return res
}

// parse reads the fuzzer's JSON report into res.
func (res *fuzzResult) parse(data []byte) error {
	var rep fuzzReport
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("reading the fuzzer's JSON output: %w", err)
	}
	if rep.TotalRuns == nil {
		return fmt.Errorf("reading the fuzzer's JSON output: %w", errNoSummary)
	}
	res.Runs = *rep.TotalRuns
	for _, f := range rep.Failures {
		why := f.Response.Error
		if len(f.InvariantFailures) > 0 {
			why = strings.Join(f.InvariantFailures, "; ")
		}
		res.Failures = append(res.Failures, oneLine(f.Tool+" ("+f.Verdict+"): "+why))
	}
	if n := rep.TotalFailures - len(rep.Failures); n > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("and %d more", n))
	}
	for _, u := range rep.UniformError {
		if u.Verdict == "fail" {
			res.Uniform = append(res.Uniform, oneLine(fmt.Sprintf("%s: %v", u.Tool, u.Differences)))
		}
	}
	for tool, t := range rep.PerTool {
		if t.Skipped {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s (%s)", tool, t.SkipReason))
		}
	}
	sort.Strings(res.Skipped)
	for _, w := range rep.SeedWarnings {
		res.SeedWarnings = append(res.SeedWarnings, oneLine(w.Seeder+": "+w.Reason))
	}
	return nil
}
