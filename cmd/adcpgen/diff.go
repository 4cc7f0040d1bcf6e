package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/adcpgen/adcpgen/generator"
)

const diffSynopsis = "adcpgen diff --from SOURCE --to SOURCE [--format text|markdown|json] [--include GLOB]... [--fresh-names]"

const diffDescription = `
Compare the Go API that two AdCP versions generate and say, change by change,
whether it breaks a Go program written against the first: added and removed
types, renames (a type's schema under another name; a schema is known by its
text and place, a union arm by what tells it apart, never by its index),
added and removed fields,
fields whose Go type changed or that became required or optional, enum values
and union arms added or removed, tools added, removed or deprecated, error
codes added, removed or given another recovery class, and error-details
shapes. Nothing is written to disk.

The second version is named as regenerating the first's package in its
directory names it (adcpgen generate keeps the names of the package in --out),
so a type whose schema is still there keeps its name; --fresh-names compares
with the second version named by the policy alone, as a fresh directory gets it.

Each SOURCE is a version ("3.0.26", resolved through the spec cache and the
mirror like adcpgen generate --spec), a schema tree directory or a .tgz
bundle. Write "./3.1.19" for a directory named like a version.

What breaks: removed or renamed types, fields, enum constants and union arms;
changed Go types (including *T to T); fields that became required or were
added as required; stricter handling of undeclared members; removed tools,
codes and details shapes; changed recovery classes. Added types, optional
fields, enum values (enums are open), union arms, tools, codes and details,
and deprecations are compatible. The rules are spelled out in the package
doc of generator/internal/apidiff.

Formats: text (for a terminal), markdown (one section per category, readable
as plain text too), json (one object, changes sorted by category, type,
member and kind; stable from run to run; shape in the apidiff package doc).

Exit status: 0 nothing breaks, 1 something breaks, 2 bad usage or a source
that cannot be read or generated.`

var diffFormats = map[string]func(*generator.DiffReport, *bytes.Buffer) error{
	"text":     func(r *generator.DiffReport, b *bytes.Buffer) error { return r.WriteText(b) },
	"markdown": func(r *generator.DiffReport, b *bytes.Buffer) error { return r.WriteMarkdown(b) },
	"json":     func(r *generator.DiffReport, b *bytes.Buffer) error { return r.WriteJSON(b) },
}

func runDiff(e *env, args []string) int {
	fs := newFlagSet("diff", diffSynopsis, diffDescription)
	from := fs.String("from", "", "the version a program uses now: version, directory or .tgz bundle")
	to := fs.String("to", "", "the version it would move to: version, directory or .tgz bundle")
	format := fs.String("format", "text", "output format: text, markdown or json")
	fresh := fs.Bool("fresh-names", false, "name the --to package by the naming policy alone, as in a fresh directory")
	var include stringList
	fs.Var(&include, "include", "compare only root schemas matching this tree-relative glob (and what they reference); repeatable")
	var src sourceFlags
	src.registerResolve(fs, e)
	rest, done, code := parseArgs(e, "diff", fs, args)
	if done {
		return code
	}
	switch {
	case len(rest) > 0:
		return usageError(e, "diff", "unexpected argument %q (use --from and --to)", rest[0])
	case *from == "":
		return usageError(e, "diff", "missing --from SOURCE")
	case *to == "":
		return usageError(e, "diff", "missing --to SOURCE")
	}
	write, ok := diffFormats[*format]
	if !ok {
		return usageError(e, "diff", "unknown --format %q (want text, markdown or json)", *format)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fromTree, err := src.resolve(ctx, *from)
	if err != nil {
		return failUnreadable(e, "--from", err)
	}
	toTree, err := src.resolve(ctx, *to)
	if err != nil {
		return failUnreadable(e, "--to", err)
	}
	report, err := generator.Diff(fromTree, toTree, generator.DiffOptions{
		Include: include, FromSource: display(*from), ToSource: display(*to), FreshNames: *fresh,
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "adcpgen diff: %v\n", err)
		return exitUsage
	}
	var out bytes.Buffer
	if err := write(report, &out); err != nil {
		fmt.Fprintf(e.stderr, "adcpgen diff: %v\n", err)
		return exitUsage
	}
	if _, err := e.stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(e.stderr, "adcpgen diff: writing the report: %v\n", err)
		return exitUsage
	}
	if report.HasBreaking() {
		return exitFailure
	}
	return exitOK
}

func failUnreadable(e *env, flag string, err error) int {
	fmt.Fprintf(e.stderr, "adcpgen diff: %s: %v\n", flag, err)
	return exitUsage
}
