// Command conformance runs the official AdCP compliance storyboards against
// a seller agent over MCP and A2A and prints, per storyboard, how many steps
// passed, failed and were skipped. The runner is `adcp storyboard run`, the
// command of the @adcp/sdk package that internal/jsinterop pins and installs
// (git-ignored); it runs offline from the package's own storyboard cache.
// The exit status is 1 when any step failed or a run broke, 2 for bad usage.
//
//	go run ./internal/conformance [flags]
//
// The seller is a running agent (-agent BASE_URL, serving MCP at /mcp and
// A2A at /a2a), else examples/seller started on a loopback port (-seller
// go, the default), else the JavaScript SDK's seller of internal/jsinterop
// (-seller js). README.md says what each storyboard needs from a seller.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

// defaultStoryboards are the storyboards issue 12 asks a seller to pass.
var defaultStoryboards = []string{
	"capability_discovery",
	"error_compliance",
	"idempotency",
	"schema_validation",
	"security_baseline",
	"v3_envelope_integrity",
	"media_buy_seller",
	"media_buy_seller/create_media_buy_async",
	// Issue 20: signed agents (signing.go).
	"signed_requests",
	"webhook_emission",
}

type config struct {
	// full runs the full assessment (no storyboard named) per protocol.
	full bool
	// governance runs the governance storyboards routed to a governance
	// agent on loopback (examples/seller only).
	governance bool
	// fuzz runs `adcp fuzz` per protocol, with fuzzSeed and fuzzBudget
	// iterations per tool.
	fuzz                bool
	fuzzSeed            int64
	fuzzBudget          int
	agentURL            string
	auth                string
	seller              string
	jsCapabilitiesSkill bool
	probeTask           string
	runnerClock         string
	protocols           []string
	storyboards         []string
	out                 string
	timeout             time.Duration
	verbose             bool
	// grade runs the SDK's request-signing grader too (gradeRuns), against
	// the started examples/seller only.
	grade bool
	root  string
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ok, err := run(ctx, cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &config{}
	fs.StringVar(&cfg.agentURL, "agent", os.Getenv("CONFORMANCE_AGENT"), "base URL of a running seller (MCP at /mcp, A2A at /a2a); default $CONFORMANCE_AGENT")
	fs.StringVar(&cfg.auth, "auth", os.Getenv("CONFORMANCE_AUTH"), "API key sent as a bearer token; default $CONFORMANCE_AUTH (a started seller gets a random one)")
	fs.StringVar(&cfg.seller, "seller", "go", "seller to start when -agent is empty: go (examples/seller) or js (the JavaScript SDK's seller)")
	fs.BoolVar(&cfg.jsCapabilitiesSkill, "js-capabilities-skill", false, "with -seller js, list get_adcp_capabilities among the agent card's skills")
	fs.StringVar(&cfg.probeTask, "probe-task", "", "run through the SDK's comply() with a test kit declaring the API key and this protected, read-only probe task (list_creatives, get_media_buy_delivery, ...), which the CLI cannot pass")
	fs.StringVar(&cfg.runnerClock, "runner-clock", DefaultRunnerClock, `where the runner's clock starts (ISO 8601), before the storyboards' fixed flight dates; "" keeps the real clock (the seller always has it)`)
	fs.BoolVar(&cfg.full, "full", true, "run the full assessment (no storyboard named: the agent's capabilities decide) over each protocol")
	fs.BoolVar(&cfg.governance, "governance", true, "run the governance storyboards with multi-agent routing to a governance agent on loopback (examples/seller)")
	fs.BoolVar(&cfg.fuzz, "fuzz", true, "run `adcp fuzz` over each protocol")
	fs.Int64Var(&cfg.fuzzSeed, "fuzz-seed", 42, "the fuzzer's seed")
	fs.IntVar(&cfg.fuzzBudget, "fuzz-budget", 50, "the fuzzer's iterations per tool")
	protocols := fs.String("protocols", "mcp,a2a", "comma-separated transports")
	storyboards := fs.String("storyboards", strings.Join(defaultStoryboards, ","), "comma-separated storyboard or bundle ids")
	fs.StringVar(&cfg.out, "out", "", "directory for each run's JSON report (default .cache/conformance in the module)")
	fs.DurationVar(&cfg.timeout, "timeout", 15*time.Minute, "limit for one storyboard run (the full assessment included)")
	fs.BoolVar(&cfg.verbose, "v", false, "also list why steps were skipped")
	fs.BoolVar(&cfg.grade, "grade", true, "with the started examples/seller, also run `adcp grade request-signing` (every RFC 9421 request-signing vector)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conformance: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return nil, flag.ErrHelp
	}
	if cfg.runnerClock != "" {
		if _, err := time.Parse(time.RFC3339, cfg.runnerClock); err != nil {
			fmt.Fprintf(stderr, "conformance: -runner-clock: %v\n", err)
			return nil, flag.ErrHelp
		}
	}
	cfg.protocols = split(*protocols)
	cfg.storyboards = split(*storyboards)
	for _, p := range cfg.protocols {
		if p != "mcp" && p != "a2a" {
			fmt.Fprintf(stderr, "conformance: -protocols: %q is not mcp or a2a\n", p)
			return nil, flag.ErrHelp
		}
	}
	return cfg, nil
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// run starts the agent, runs every storyboard over every protocol and
// writes the report to w. ok is false when a step failed or a run broke.
func run(ctx context.Context, cfg *config, w io.Writer) (ok bool, err error) {
	env, err := jsinterop.Setup(ctx, func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	})
	if err != nil {
		return false, err
	}
	cfg.root = filepath.Dir(filepath.Dir(env.Dir))
	if cfg.out == "" {
		cfg.out = filepath.Join(cfg.root, ".cache", "conformance")
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return false, err
	}
	src, err := newSellers(ctx, cfg, env)
	if err != nil {
		return false, err
	}
	defer src.close()

	fmt.Fprintf(w, "conformance: %s against %s\n", sdkVersion(env), src.Name)
	if cfg.probeTask != "" {
		fmt.Fprintf(w, "conformance: through comply() with a test kit: the API key and probe task %s\n", cfg.probeTask)
	}
	if cfg.runnerClock != "" {
		who := "the runner's clock starts"
		if startsExampleSeller(cfg) {
			who = "the runner's and the seller's clocks start"
		}
		fmt.Fprintf(w, "conformance: %s at %s\n", who, cfg.runnerClock)
	}
	start := time.Now()
	var results []*result
	var fuzzes []*fuzzResult
	spec := func(protocol, storyboard string) runSpec {
		return runSpec{protocol: protocol, storyboard: storyboard, probeTask: cfg.probeTask, clock: cfg.runnerClock, outDir: cfg.out, timeout: cfg.timeout}
	}
	// each runs f against a fresh seller (started with flags) within the
	// run timeout.
	each := func(f func(ctx context.Context, a *agent), flags ...string) error {
		a, err := src.start(ctx, flags...)
		if err != nil {
			return err
		}
		runCtx, cancel := context.WithTimeout(ctx, cfg.timeout)
		f(runCtx, a)
		cancel()
		a.stop()
		return ctx.Err()
	}
	for _, protocol := range cfg.protocols {
		var runs []string
		if cfg.full {
			runs = append(runs, fullAssessment)
		}
		for _, sb := range append(runs, cfg.storyboards...) {
			s := spec(protocol, sb)
			err := each(func(ctx context.Context, a *agent) {
				if cfg.verbose {
					fmt.Fprintf(w, "conformance: %s %s at %s\n", protocol, sb, a.url(protocol))
				}
				if startsExampleSeller(cfg) {
					s.options = storyboardOptions(sb, a)
				}
				results = append(results, runStoryboard(ctx, env, a, s))
			}, sellerClock(cfg, s.clock)...)
			if err != nil {
				return false, err
			}
		}
		if cfg.governance && src.governance != nil {
			r, err := runGovernanceStoryboards(ctx, cfg, env, src, spec(protocol, governanceRun))
			if err != nil {
				return false, err
			}
			results = append(results, r)
		}
		if cfg.fuzz {
			err := each(func(ctx context.Context, a *agent) {
				fuzzes = append(fuzzes, runFuzz(ctx, env, a, protocol, cfg.fuzzSeed, cfg.fuzzBudget, cfg.out))
			})
			if err != nil {
				return false, err
			}
		}
	}
	ok = printResults(w, results, cfg, time.Since(start))
	ok = printFuzz(w, fuzzes) && ok
	if cfg.grade && startsExampleSeller(cfg) {
		grades, err := gradeAll(ctx, env, src, cfg)
		if err != nil {
			return false, err
		}
		ok = printGrades(w, grades) && ok
	}
	return ok, nil
}

// sellerClock is the flag that starts examples/seller's clock where the
// runner's starts, so both agree on the time: request signatures carry
// their signer's time and are verified within a 300 s window, and the
// storyboards' flight dates lie ahead for both. Another seller keeps its
// own clock.
func sellerClock(cfg *config, clock string) []string {
	if clock == "" || !startsExampleSeller(cfg) {
		return nil
	}
	return []string{"-clock", clock}
}

// startsExampleSeller reports a run against examples/seller started here,
// whose sandbox is the signed-requests runner's counterparty.
func startsExampleSeller(cfg *config) bool { return cfg.agentURL == "" && cfg.seller == "go" }

// runGovernanceStoryboards starts a governance agent on TLS and a seller that trusts
// it, and runs the governance storyboards against both.
func runGovernanceStoryboards(ctx context.Context, cfg *config, env *jsinterop.Env, src *sellers, spec runSpec) (*result, error) {
	dir, err := os.MkdirTemp("", "adcpgen-conformance-ca-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cert, key, err := testCA(dir)
	if err != nil {
		return nil, err
	}
	gov, err := src.governance(ctx, cert, key, sellerClock(cfg, spec.clock)...)
	if err != nil {
		return nil, err
	}
	defer gov.stop()
	s, err := src.start(ctx, append([]string{"-governance-loopback", "only", "-governance-ca", cert}, sellerClock(cfg, spec.clock)...)...)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	runCtx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	return runGovernance(runCtx, env, s, gov, cert, spec), ctx.Err()
}

// printResults writes the table of counts, then the failed steps (known
// ones apart, with why), the skipped steps of the full assessments and
// the routed runs (of every run with -v), and the broken runs; it reports
// whether everything passed but the known failures.
func printResults(w io.Writer, results []*result, cfg *config, elapsed time.Duration) bool {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "protocol\tstoryboard\tpassed\tfailed\tskipped\tknown\ttime\t")
	var passed, failed, skipped, knownN int
	ok := true
	for _, r := range results {
		if r.Err != nil {
			ok = false
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t%.1fs\t(run failed)\n", r.Protocol, r.Storyboard, r.Duration.Seconds())
			continue
		}
		s := r.Report.Summary
		k := r.knownCount()
		passed, failed, skipped, knownN = passed+s.StepsPassed, failed+s.StepsFailed-k, skipped+s.StepsSkipped, knownN+k
		if r.failed() {
			ok = false
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%.1fs\t\n", r.Protocol, r.Storyboard, s.StepsPassed, s.StepsFailed-k, s.StepsSkipped, k, r.Duration.Seconds())
	}
	fmt.Fprintf(tw, "\ttotal\t%d\t%d\t%d\t%d\t%.1fs\t\n", passed, failed, skipped, knownN, elapsed.Seconds())
	tw.Flush()

	for _, r := range results {
		switch {
		case r.Err != nil:
			fmt.Fprintf(w, "\n%s %s: run failed: %v\n  output: %s\n", r.Protocol, r.Storyboard, r.Err, r.Output)
			continue
		case r.failed():
			fmt.Fprintf(w, "\n%s %s: %d failed (report: %s)\n", r.Protocol, r.Storyboard, len(r.unexpected()), r.Output)
			for _, f := range r.unexpected() {
				fmt.Fprintf(w, "  %s\n", f)
			}
		}
		printKnown(w, r)
		if r.Kind != kindNamed || cfg.verbose {
			if skips := r.Report.skipsByStoryboard(); len(skips) > 0 {
				fmt.Fprintf(w, "%s %s: skipped: %s\n", r.Protocol, r.Storyboard, strings.Join(skips, "; "))
			}
		}
	}
	printStale(w, results)
	return ok
}

// printKnown lists a run's known failures, one line per entry.
func printKnown(w io.Writer, r *result) {
	counts := map[knownFailure]int{}
	var order []knownFailure
	for _, f := range r.Report.Failures {
		if k, ok := known(r.Kind, f); ok {
			if counts[k] == 0 {
				order = append(order, k)
			}
			counts[k]++
		}
	}
	for _, k := range order {
		fmt.Fprintf(w, "%s %s: known, not counted: %s %s (%d): %s\n", r.Protocol, r.Storyboard, k.storyboard, k.step, counts[k], k.why)
	}
}

// printStale reports known failures no run of their kind met: passing
// now, they should be taken off the list.
func printStale(w io.Writer, results []*result) {
	ran, met := map[string]bool{}, map[knownFailure]bool{}
	for _, r := range results {
		if r.Err != nil {
			continue
		}
		ran[r.Kind] = true
		for _, f := range r.Report.Failures {
			if k, ok := known(r.Kind, f); ok {
				met[k] = true
			}
		}
	}
	for _, k := range knownFailures {
		kind := k.kind
		if kind == "" {
			kind = kindFull
		}
		if ran[kind] && !met[k] {
			fmt.Fprintf(w, "stale known failure (it passes now: remove it from known.go): %s %s\n", k.storyboard, k.step)
		}
	}
}

// printFuzz writes each fuzz run's counts and findings; it reports whether
// none found anything.
func printFuzz(w io.Writer, fuzzes []*fuzzResult) bool {
	ok := true
	for _, f := range fuzzes {
		switch {
		case f.Err != nil:
			ok = false
			fmt.Fprintf(w, "\nfuzz %s: run failed: %v\n  output: %s\n", f.Protocol, f.Err, f.Output)
		case f.failed():
			ok = false
			fmt.Fprintf(w, "\nfuzz %s: %d runs, %d failures, %d uniform-error probes failed (seed %d, %.1fs; report: %s)\n",
				f.Protocol, f.Runs, len(f.Failures), len(f.Uniform), f.Seed, f.Duration.Seconds(), f.Output)
			for _, l := range append(f.Failures, f.Uniform...) {
				fmt.Fprintf(w, "  %s\n", l)
			}
		default:
			fmt.Fprintf(w, "fuzz %s: %d runs, 0 failures (seed %d, %.1fs)\n", f.Protocol, f.Runs, f.Seed, f.Duration.Seconds())
		}
		if f.Err == nil {
			if len(f.Skipped) > 0 {
				fmt.Fprintf(w, "fuzz %s: tools not fuzzed: %s\n", f.Protocol, strings.Join(f.Skipped, ", "))
			}
			if len(f.SeedWarnings) > 0 {
				fmt.Fprintf(w, "fuzz %s: not seeded: %s\n", f.Protocol, strings.Join(f.SeedWarnings, "; "))
			}
		}
	}
	return ok
}

// sdkVersion names the installed runner: "@adcp/sdk 6.11.0 (AdCP 3.0.6)".
func sdkVersion(env *jsinterop.Env) string {
	dir := filepath.Join(env.Dir, "node_modules", "@adcp", "sdk")
	var pkg struct {
		Version     string `json:"version"`
		AdcpVersion string `json:"adcp_version"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil || json.Unmarshal(data, &pkg) != nil {
		return "@adcp/sdk (version unknown)"
	}
	return fmt.Sprintf("@adcp/sdk %s (AdCP %s)", pkg.Version, pkg.AdcpVersion)
}
