package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// sortResults orders results by bundle (as bundles lists them), protocol
// (MCP first), then run.
func sortResults(results []*result, bundles []string) {
	slices.SortStableFunc(results, func(a, b *result) int {
		if c := slices.Index(bundles, a.Bundle) - slices.Index(bundles, b.Bundle); c != 0 {
			return c
		}
		if c := protocolOrder(a.Protocol) - protocolOrder(b.Protocol); c != 0 {
			return c
		}
		return strings.Compare(a.Storyboard, b.Storyboard)
	})
}

// sortFuzzes orders fuzz runs as sortResults does.
func sortFuzzes(fuzzes []*fuzzResult, bundles []string) {
	slices.SortStableFunc(fuzzes, func(a, b *fuzzResult) int {
		if c := slices.Index(bundles, a.Bundle) - slices.Index(bundles, b.Bundle); c != 0 {
			return c
		}
		return protocolOrder(a.Protocol) - protocolOrder(b.Protocol)
	})
}

func protocolOrder(p string) int {
	if p == "mcp" {
		return 0
	}
	return 1
}

// printResults writes the table of counts per bundle, protocol and run,
// then per run the failed steps (known ones apart, with why and their
// upstream issue), the skipped steps of full assessments and routed runs
// by storyboard and reason (of every run with -v), the storyboards the
// seller lacks tools for, and the broken runs; then the stale known
// failures. It reports whether everything passed but the known failures.
func printResults(w io.Writer, results []*result, cfg *config, elapsed time.Duration) bool {
	if len(results) == 0 {
		return true
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nbundle\tprotocol\trun\tpassed\tfailed\tskipped\tknown\ttime\t")
	var passed, failed, skipped, knownN int
	ok := true
	for _, r := range results {
		if r.Err != nil {
			ok = false
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t-\t-\t%.0fs\t(run failed)\n", r.Bundle, r.Protocol, r.Storyboard, r.Duration.Seconds())
			continue
		}
		s := r.Report.Summary
		k := r.knownCount()
		passed, failed, skipped, knownN = passed+s.StepsPassed, failed+len(r.unexpected()), skipped+s.StepsSkipped, knownN+k
		if r.failed() {
			ok = false
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.0fs\t\n", r.Bundle, r.Protocol, r.Storyboard, s.StepsPassed, len(r.unexpected()), s.StepsSkipped, k, r.Duration.Seconds())
	}
	fmt.Fprintf(tw, "\t\ttotal\t%d\t%d\t%d\t%d\t%.0fs\t\n", passed, failed, skipped, knownN, elapsed.Seconds())
	tw.Flush()

	for _, r := range results {
		name := r.Bundle + " " + r.Protocol + " " + r.Storyboard
		switch {
		case r.Err != nil:
			fmt.Fprintf(w, "\n%s: run failed: %v\n  output: %s\n", name, r.Err, r.Output)
			continue
		case r.failed():
			fmt.Fprintf(w, "\n%s: %d failed (report: %s)\n", name, len(r.unexpected()), r.Output)
			for _, f := range r.unexpected() {
				fmt.Fprintf(w, "  %s\n", f)
			}
		}
		printKnown(w, name, r)
		if r.Kind != kindNamed || cfg.verbose {
			if skips := r.Report.skipsByStoryboard(r.listedCauses()); len(skips) > 0 {
				fmt.Fprintf(w, "%s: skipped: %s\n", name, strings.Join(skips, "; "))
			}
			if m := r.Report.StoryboardsMissingTools; len(m) > 0 {
				fmt.Fprintf(w, "%s: not run, tools the seller does not serve: %s\n", name, strings.Join(m, ", "))
			}
			if n := r.Report.notSelected(); len(n) > 0 {
				fmt.Fprintf(w, "%s: not selected: %s\n", name, strings.Join(n, "; "))
			}
		}
	}
	printStale(w, results)
	return ok
}

// printKnown lists a run's known failures, one line per entry.
func printKnown(w io.Writer, name string, r *result) {
	counts := map[int]int{}
	var order []int
	for _, f := range r.Report.Failures {
		if i := knownIndex(r.known, r.Kind, r.Bundle, r.Protocol, f); i >= 0 {
			if counts[i] == 0 {
				order = append(order, i)
			}
			counts[i]++
		}
	}
	for _, i := range order {
		k := r.known[i]
		label := "known"
		if k.open {
			label = "open"
		}
		fmt.Fprintf(w, "%s: %s, not counted: %s %s (%d) [%s]: %s\n", name, label, k.storyboard, k.step, counts[i], k.source(), k.why)
	}
}

// printStale reports the known failures no run they apply to met: passing
// now, they should be taken off the list. A named run applies only to the
// storyboards it ran.
func printStale(w io.Writer, results []*result) {
	if len(results) == 0 {
		return
	}
	list := results[0].known
	ran, met := map[int]bool{}, map[int]bool{}
	for _, r := range results {
		if r.Err != nil {
			continue
		}
		for i, k := range list {
			if k.applies(r.Kind, r.Bundle, r.Protocol) && (r.Kind != kindNamed || k.storyboard == "*" || slices.Contains(r.Report.StoryboardsExecuted, k.storyboard)) {
				ran[i] = true
			}
		}
		for _, f := range r.Report.Failures {
			if i := knownIndex(list, r.Kind, r.Bundle, r.Protocol, f); i >= 0 {
				met[i] = true
			}
		}
	}
	for i, k := range list {
		if ran[i] && !met[i] {
			file := "known.go"
			if k.open {
				file = "open.go"
			}
			fmt.Fprintf(w, "stale known failure (no run it applies to failed it: remove it from %s): %s %s [%s]\n", file, k.storyboard, k.step, k.source())
		}
	}
}

// printFuzz writes each fuzz run's counts and findings; it reports whether
// none found anything.
func printFuzz(w io.Writer, fuzzes []*fuzzResult) bool {
	ok := true
	fmt.Fprintln(w)
	for _, f := range fuzzes {
		name := "fuzz " + strings.TrimSpace(f.Bundle+" "+f.Protocol)
		switch {
		case f.Err != nil:
			ok = false
			fmt.Fprintf(w, "%s: run failed: %v\n  output: %s\n", name, f.Err, f.Output)
		case f.failed():
			ok = false
			fmt.Fprintf(w, "%s: %d runs, %d failures, %d uniform-error probes failed (seed %d, %.0fs; report: %s)\n",
				name, f.Runs, len(f.Failures), len(f.Uniform), f.Seed, f.Duration.Seconds(), f.Output)
			for _, l := range append(f.Failures, f.Uniform...) {
				fmt.Fprintf(w, "  %s\n", l)
			}
		default:
			fmt.Fprintf(w, "%s: %d runs, 0 failures (seed %d, %.0fs)\n", name, f.Runs, f.Seed, f.Duration.Seconds())
		}
		if f.Err == nil {
			if len(f.Skipped) > 0 {
				fmt.Fprintf(w, "%s: tools not fuzzed: %s\n", name, strings.Join(f.Skipped, ", "))
			}
			if len(f.SeedWarnings) > 0 {
				fmt.Fprintf(w, "%s: not seeded: %s\n", name, strings.Join(f.SeedWarnings, "; "))
			}
		}
	}
	return ok
}

// notSelected counts the steps the runner left out, by storyboard and
// reason: "signed_requests: profile_excluded 9".
func (r *report) notSelected() []string {
	if r.Summary == nil {
		return nil
	}
	counts := map[string]int{}
	for _, n := range r.Summary.NotSelected {
		counts[n.StoryboardID+": "+n.Reason]++
	}
	var out []string
	for k, n := range counts {
		out = append(out, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(out)
	return out
}
