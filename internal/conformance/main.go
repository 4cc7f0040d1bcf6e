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
	"slices"
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
	protocols := fs.String("protocols", "mcp,a2a", "comma-separated transports")
	storyboards := fs.String("storyboards", strings.Join(defaultStoryboards, ","), "comma-separated storyboard or bundle ids")
	fs.StringVar(&cfg.out, "out", "", "directory for each run's JSON report (default .cache/conformance in the module)")
	fs.DurationVar(&cfg.timeout, "timeout", 5*time.Minute, "limit for one storyboard run")
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
		fmt.Fprintf(w, "conformance: the runner's clock starts at %s (the seller keeps the real one)\n", cfg.runnerClock)
	}
	start := time.Now()
	var results []*result
	for _, protocol := range cfg.protocols {
		for _, sb := range cfg.storyboards {
			a, err := src.start(ctx)
			if err != nil {
				return false, err
			}
			if cfg.verbose {
				fmt.Fprintf(w, "conformance: %s %s at %s\n", protocol, sb, a.url(protocol))
			}
			runCtx, cancel := context.WithTimeout(ctx, cfg.timeout)
			var options map[string]any
			if startsExampleSeller(cfg) {
				options = storyboardOptions(sb, a)
			}
			clock := cfg.runnerClock
			if slices.Contains(signingStoryboards, sb) {
				// Signatures carry their signer's time and the seller keeps
				// the real clock: a runner at 2026-03-01 would sign and
				// verify outside every 300 s window.
				clock = ""
			}
			results = append(results, runStoryboard(runCtx, env, a, runSpec{
				protocol: protocol, storyboard: sb, probeTask: cfg.probeTask, clock: clock, outDir: cfg.out, options: options,
			}))
			cancel()
			a.stop()
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
		}
	}
	ok = printResults(w, results, cfg, time.Since(start))
	if cfg.grade && startsExampleSeller(cfg) {
		grades, err := gradeAll(ctx, env, src, cfg)
		if err != nil {
			return false, err
		}
		ok = printGrades(w, grades) && ok
	}
	return ok, nil
}

// startsExampleSeller reports a run against examples/seller started here,
// whose sandbox is the signed-requests runner's counterparty.
func startsExampleSeller(cfg *config) bool { return cfg.agentURL == "" && cfg.seller == "go" }

// printResults writes the table of counts, then the failed steps and the
// broken runs; it reports whether everything passed.
func printResults(w io.Writer, results []*result, cfg *config, elapsed time.Duration) bool {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "protocol\tstoryboard\tpassed\tfailed\tskipped\ttime\t")
	var passed, failed, skipped int
	ok := true
	for _, r := range results {
		if r.Err != nil {
			ok = false
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t%.1fs\t(run failed)\n", r.Protocol, r.Storyboard, r.Duration.Seconds())
			continue
		}
		s := r.Report.Summary
		passed, failed, skipped = passed+s.StepsPassed, failed+s.StepsFailed, skipped+s.StepsSkipped
		if s.StepsFailed > 0 {
			ok = false
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.1fs\t\n", r.Protocol, r.Storyboard, s.StepsPassed, s.StepsFailed, s.StepsSkipped, r.Duration.Seconds())
	}
	fmt.Fprintf(tw, "\ttotal\t%d\t%d\t%d\t%.1fs\t\n", passed, failed, skipped, elapsed.Seconds())
	tw.Flush()

	for _, r := range results {
		switch {
		case r.Err != nil:
			fmt.Fprintf(w, "\n%s %s: run failed: %v\n  output: %s\n", r.Protocol, r.Storyboard, r.Err, r.Output)
		case r.failed():
			fmt.Fprintf(w, "\n%s %s: %d failed (report: %s)\n", r.Protocol, r.Storyboard, r.Report.Summary.StepsFailed, r.Output)
			for _, f := range r.Report.Failures {
				fmt.Fprintf(w, "  %s\n", f)
			}
		}
		if cfg.verbose && r.Err == nil && r.Report.Summary.StepsSkipped > 0 {
			if reasons := r.Report.skipReasons(); len(reasons) > 0 {
				fmt.Fprintf(w, "%s %s: skipped: %s\n", r.Protocol, r.Storyboard, strings.Join(reasons, ", "))
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
