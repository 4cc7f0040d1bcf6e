// Command conformance grades a seller agent with the official AdCP
// compliance runner (`adcp`, of @adcp/sdk), the newest the kit in
// ../shared/conformance holds: per compliance bundle it carries and per
// transport (MCP, A2A), the full assessment (no storyboard named: the
// agent's capabilities decide what runs), `adcp fuzz` against that
// bundle's schemas, and `adcp grade request-signing`. It prints how many
// steps passed, failed and were skipped per bundle and transport, every
// failed step and why, the known failures (known.go), the skipped steps by
// storyboard and reason, and what the fuzzer and the grader found. The
// exit status is 1 when any step failed but the known ones, a run broke,
// or the fuzzer or the grader found anything; 2 for bad usage.
//
//	go run ./internal/conformance [flags]
//
// The seller is a running agent (-agent BASE_URL, serving MCP at /mcp and
// A2A at /a2a), else examples/seller started on a loopback port for each
// run (-seller go, the default), else the JavaScript SDK's seller of
// internal/jsinterop (-seller js). README.md says what the storyboards
// need from a seller.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

type config struct {
	// kitDir is the runner kit: a folder holding adcp-sdk-*, or one.
	kitDir string
	// bundles are the compliance bundles graded (none: those of the
	// releases the seller serves, of every one the kit carries).
	bundles []string
	// storyboards, when set, runs those storyboards instead of the full
	// assessment.
	storyboards []string
	// full runs the full assessment per bundle and protocol.
	full bool
	// governance runs the governance storyboards routed to a governance
	// agent on loopback (examples/seller only).
	governance bool
	// contracts runs contractsStoryboards with the runner contracts the
	// CLI cannot configure (examples/seller only: its brand.json).
	contracts bool
	// fuzz runs `adcp fuzz` per bundle and protocol, with fuzzSeed and
	// fuzzBudget iterations per tool.
	fuzz       bool
	fuzzSeed   int64
	fuzzBudget int
	// grade runs the request-signing grader (gradeRuns), against the
	// started examples/seller only.
	grade               bool
	agentURL            string
	auth                string
	liveAuth            string
	seller              string
	jsCapabilitiesSkill bool
	runnerClock         string
	protocols           []string
	out                 string
	timeout             time.Duration
	// parallel is how many runs go at once, each against its own seller.
	parallel int
	verbose  bool
	// strict counts the open failures (open.go) as failed.
	strict bool
	root   string
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
	fs.StringVar(&cfg.kitDir, "kit", os.Getenv("ADCP_CONFORMANCE_DIR"), "the compliance runner kit: a folder holding adcp-sdk-*/ (default $ADCP_CONFORMANCE_DIR, else conformance/ beside $ADCP_SPEC_DIR, else ../shared/conformance beside the module)")
	bundles := fs.String("bundles", "", "comma-separated compliance bundles to grade (default: those of the releases the seller's get_adcp_capabilities lists, of every one the kit carries)")
	storyboards := fs.String("storyboards", "", "comma-separated storyboard or bundle ids to run instead of the full assessment")
	fs.StringVar(&cfg.agentURL, "agent", os.Getenv("CONFORMANCE_AGENT"), "base URL of a running seller (MCP at /mcp, A2A at /a2a); default $CONFORMANCE_AGENT")
	fs.StringVar(&cfg.auth, "auth", os.Getenv("CONFORMANCE_AUTH"), "API key sent as a bearer token; default $CONFORMANCE_AUTH (a started seller gets a random one)")
	fs.StringVar(&cfg.liveAuth, "live-auth", os.Getenv("CONFORMANCE_LIVE_AUTH"), "with -agent, the API key of a live-mode (non-sandbox) buyer, for the security and controller-gate probes; default $CONFORMANCE_LIVE_AUTH, else -auth")
	fs.StringVar(&cfg.seller, "seller", "go", "seller to start when -agent is empty: go (examples/seller) or js (the JavaScript SDK's seller)")
	fs.BoolVar(&cfg.jsCapabilitiesSkill, "js-capabilities-skill", false, "with -seller js, list get_adcp_capabilities among the agent card's skills")
	fs.StringVar(&cfg.runnerClock, "runner-clock", DefaultRunnerClock, `where the runner's clock starts (ISO 8601), before the storyboards' fixed flight dates; "" keeps the real clock`)
	fs.BoolVar(&cfg.full, "full", true, "run the full assessment (or -storyboards) per bundle and protocol")
	fs.BoolVar(&cfg.governance, "governance", true, "run the governance storyboards with multi-agent routing to a governance agent on loopback (examples/seller)")
	fs.BoolVar(&cfg.contracts, "contracts", true, "run webhook_emission and idempotency with the runner contracts the CLI cannot configure (webhook signature verification, parallel dispatch), per bundle and protocol (examples/seller)")
	fs.BoolVar(&cfg.fuzz, "fuzz", true, "run `adcp fuzz` per bundle and protocol")
	fs.Int64Var(&cfg.fuzzSeed, "fuzz-seed", 42, "the fuzzer's seed")
	fs.IntVar(&cfg.fuzzBudget, "fuzz-budget", 50, "the fuzzer's iterations per tool")
	fs.BoolVar(&cfg.grade, "grade", true, "with the started examples/seller, also run `adcp grade request-signing` (every RFC 9421 request-signing vector)")
	protocols := fs.String("protocols", "mcp,a2a", "comma-separated transports")
	fs.StringVar(&cfg.out, "out", "", "directory for each run's JSON report (default .cache/conformance/reports in the module)")
	fs.DurationVar(&cfg.timeout, "timeout", 15*time.Minute, "limit for one run (a full assessment included)")
	fs.IntVar(&cfg.parallel, "parallel", 3, "runs at once, each against a seller of its own (1 with -agent): most of a run is waiting for webhooks")
	fs.BoolVar(&cfg.verbose, "v", false, "also list why steps of named runs were skipped")
	fs.BoolVar(&cfg.strict, "strict", false, "count the open failures (open.go: examples/seller's own gaps, tracked in an issue) as failed")
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
	cfg.bundles = split(*bundles)
	cfg.storyboards = split(*storyboards)
	for _, p := range cfg.protocols {
		if p != "mcp" && p != "a2a" {
			fmt.Fprintf(stderr, "conformance: -protocols: %q is not mcp or a2a\n", p)
			return nil, flag.ErrHelp
		}
	}
	if cfg.parallel < 1 {
		fmt.Fprintf(stderr, "conformance: -parallel %d: want 1 or more\n", cfg.parallel)
		return nil, flag.ErrHelp
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

// moduleRoot finds the module root above the working directory (make runs
// in the root, tests in their package's directory).
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "internal", "conformance", runnerClockScript)); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("internal/conformance not found above %s", wd)
		}
	}
}

// defaultKitDir is where the kit is looked for without -kit or
// $ADCP_CONFORMANCE_DIR: beside the published spec when $ADCP_SPEC_DIR
// names it (the two are shipped side by side, and a clone elsewhere still
// finds them), else ../shared/conformance beside the module.
func defaultKitDir(root string) string {
	if spec := os.Getenv("ADCP_SPEC_DIR"); spec != "" {
		dir := filepath.Join(spec, "..", "conformance")
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
	}
	return filepath.Join(root, "..", "shared", "conformance")
}

// setupKit installs the runner kit cfg names and checks the bundles asked
// for are in it.
func setupKit(ctx context.Context, cfg *config) (*kit, error) {
	dir := cfg.kitDir
	if dir == "" {
		dir = defaultKitDir(cfg.root)
	}
	src, err := kitSource(dir)
	if err != nil {
		return nil, err
	}
	k, err := installKit(ctx, src, filepath.Join(cfg.root, ".cache", "conformance", "runner"), func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	})
	if err != nil {
		return nil, err
	}
	k.Scripts = filepath.Join(cfg.root, "internal", "conformance")
	for _, b := range cfg.bundles {
		if !slices.Contains(k.Bundles, b) {
			return nil, fmt.Errorf("-bundles: the runner %s has no bundle %s (it has %s)", k.Version, b, strings.Join(k.Bundles, ", "))
		}
	}
	return k, nil
}

// run installs the runner, then grades the seller: per bundle and
// protocol the full assessment (or the storyboards named), the routed
// governance storyboards and the fuzzer, then the request-signing grader;
// it writes the report to w. ok is false when a step failed (but the
// known ones), a run broke, or the fuzzer or the grader found anything.
func run(ctx context.Context, cfg *config, w io.Writer) (ok bool, err error) {
	if cfg.root, err = moduleRoot(); err != nil {
		return false, err
	}
	k, err := setupKit(ctx, cfg)
	if err != nil {
		return false, err
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(cfg.root, ".cache", "conformance", "reports")
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return false, err
	}
	var env *jsinterop.Env
	if cfg.agentURL == "" && cfg.seller == "js" {
		// The JavaScript SDK's seller is internal/jsinterop's.
		if env, err = jsinterop.Setup(ctx, func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }); err != nil {
			return false, err
		}
	}
	src, err := newSellers(ctx, cfg, env)
	if err != nil {
		return false, err
	}
	defer src.close()
	k.ExtraCA = src.caFile
	parallel := cfg.parallel
	if cfg.agentURL != "" {
		parallel = 1 // one seller: runs would meet each other's records
	}
	caps, err := sellerCapabilities(ctx, src, cfg.out)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "conformance: @adcp/sdk %s (bundles %s) against %s, serving AdCP %s; %d run(s) at a time\n",
		k.Version, strings.Join(k.Bundles, ", "), src.Name, strings.Join(caps.Releases, ", "), parallel)
	if len(cfg.bundles) == 0 {
		var not []string
		cfg.bundles, not = servedBundles(k.Bundles, caps)
		if len(not) > 0 {
			fmt.Fprintf(w, "conformance: not graded: bundles %s, of releases the seller does not list in get_adcp_capabilities\n", strings.Join(not, ", "))
		}
		if len(cfg.bundles) == 0 {
			return false, fmt.Errorf("the seller serves none of the releases of the bundles %s", strings.Join(k.Bundles, ", "))
		}
	}
	fmt.Fprintf(w, "conformance: grading bundles %s\n", strings.Join(cfg.bundles, ", "))
	if cfg.runnerClock != "" {
		who := "the runner's clock starts"
		if startsExampleSeller(cfg) {
			who = "the runner's and the seller's clocks start"
		}
		fmt.Fprintf(w, "conformance: %s at %s\n", who, cfg.runnerClock)
	}
	known := withOpen(knownFailures[k.Version], openFailures[k.Version], cfg.strict)
	if known == nil {
		fmt.Fprintf(w, "conformance: no known failures are listed for runner %s (known.go)\n", k.Version)
	}

	start := time.Now()
	var (
		mu      sync.Mutex
		results = make([]*result, 0)
		fuzzes  = make([]*fuzzResult, 0)
		grades  = make([]*gradeResult, 0)
		jobs    []func(ctx context.Context) error
	)
	// each runs f against a fresh seller (started with flags, logging to
	// the reports' folder under name) within the run timeout.
	each := func(ctx context.Context, name string, f func(ctx context.Context, a *agent), flags ...string) error {
		a, err := src.start(ctx, filepath.Join(cfg.out, name+".seller.log"), flags...)
		if err != nil {
			return err
		}
		runCtx, cancel := context.WithTimeout(ctx, cfg.timeout)
		f(runCtx, a)
		cancel()
		a.stop()
		return ctx.Err()
	}
	testKit := filepath.Join(cfg.out, "test-kit.yaml")
	if err := writeTestKit(testKit, src.liveKey); err != nil {
		return false, err
	}
	for _, bundle := range cfg.bundles {
		for _, protocol := range cfg.protocols {
			spec := runSpec{bundle: bundle, protocol: protocol, storyboards: cfg.storyboards, clock: cfg.runnerClock,
				outDir: cfg.out, timeout: cfg.timeout, testKit: testKit}
			if cfg.full {
				jobs = append(jobs, func(ctx context.Context) error {
					return each(ctx, bundle+"-"+protocol+"-"+fileName(spec.name()), func(ctx context.Context, a *agent) {
						r := runStoryboards(ctx, k, a, spec)
						r.known = known
						mu.Lock()
						results = append(results, r)
						mu.Unlock()
					}, sellerClock(cfg, spec.clock)...)
				})
			}
			if cfg.governance && src.governance != nil {
				jobs = append(jobs, func(ctx context.Context) error {
					r, err := runGovernanceStoryboards(ctx, cfg, k, src, spec)
					if r != nil {
						r.known = known
						mu.Lock()
						results = append(results, r)
						mu.Unlock()
					}
					return err
				})
			}
			if cfg.contracts && startsExampleSeller(cfg) && len(cfg.storyboards) == 0 {
				jobs = append(jobs, func(ctx context.Context) error {
					return each(ctx, bundle+"-"+protocol+"-contracts", func(ctx context.Context, a *agent) {
						r := runContracts(ctx, k, a, spec, src.liveKey)
						r.known = known
						mu.Lock()
						results = append(results, r)
						mu.Unlock()
					}, sellerClock(cfg, spec.clock)...)
				})
			}
			if cfg.fuzz {
				jobs = append(jobs, func(ctx context.Context) error {
					return each(ctx, bundle+"-"+protocol+"-fuzz", func(ctx context.Context, a *agent) {
						f := runFuzz(ctx, k, a, bundle, protocol, cfg.fuzzSeed, cfg.fuzzBudget, cfg.out)
						mu.Lock()
						fuzzes = append(fuzzes, f)
						mu.Unlock()
					})
				})
			}
		}
	}
	var skips []string
	if cfg.grade && startsExampleSeller(cfg) {
		var why []string
		skips, why = capabilitySkips(k, caps)
		for _, y := range why {
			fmt.Fprintf(w, "conformance: the grader skips %s\n", y)
		}
		for i, gr := range gradeRuns {
			gr.Args = withSkips(gr.Args, skips)
			jobs = append(jobs, func(ctx context.Context) error {
				// Each on a fresh seller: vector 020 fills the runner
				// key's replay cap.
				return each(ctx, fmt.Sprintf("grade-request-signing-%d", i+1), func(ctx context.Context, a *agent) {
					g := runGrader(ctx, k, a, gr, cfg.out, i+1)
					mu.Lock()
					grades = append(grades, g)
					mu.Unlock()
				})
			})
		}
	}
	if err := runJobs(ctx, parallel, jobs); err != nil {
		return false, err
	}
	sortResults(results, cfg.bundles)
	sortFuzzes(fuzzes, cfg.bundles)
	slices.SortFunc(grades, func(a, b *gradeResult) int { return strings.Compare(a.Output, b.Output) })
	ok = printResults(w, results, cfg, time.Since(start))
	if len(fuzzes) > 0 {
		ok = printFuzz(w, fuzzes) && ok
	}
	if len(grades) > 0 {
		ok = printGrades(w, grades, skips) && ok
	}
	fmt.Fprintf(w, "\nconformance: %s in all\n", time.Since(start).Round(time.Second))
	return ok, nil
}

// sellerCapabilities starts a seller and reads its capabilities.
func sellerCapabilities(ctx context.Context, src *sellers, out string) (*sellerCaps, error) {
	a, err := src.start(ctx, filepath.Join(out, "capabilities.seller.log"))
	if err != nil {
		return nil, err
	}
	defer a.stop()
	return readCaps(ctx, a)
}

// runJobs runs jobs, at most parallel at once, and returns the first
// error (an interrupt, a seller that did not start).
func runJobs(parent context.Context, parallel int, jobs []func(context.Context) error) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	sem := make(chan struct{}, parallel)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for _, job := range jobs {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := job(ctx); err != nil {
				once.Do(func() { firstErr = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = parent.Err()
	}
	return firstErr
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
