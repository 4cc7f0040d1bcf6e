package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/templates"
)

const generateDescription = `
Generate Go types with strict decoders from AdCP JSON Schemas. Files named
*_gen.go and doc.go are written into --out; files there that adcpgen did not
write are never overwritten, and generated files a previous run wrote but this
one does not are removed. When --out is inside a Go module, a package of a
thousand types or more (a whole spec version) declares about half of them in
--out/internal/types and re-exports them by alias, so that it compiles in two
halves of bounded memory.

SOURCE is a schema tree directory, a protocol bundle (.tgz, checked against its
.sha256 sidecar when one sits beside it), or a version ("3.0.26") resolved
through the spec cache (see adcpgen fetch). Without --spec (and $ADCP_SPEC),
adcpgen's own embedded core schemas are used: the error object, the
error-details shapes, task statuses, the MCP response envelope and the MCP
webhook payload.

Prints one summary line: types, files, raw-JSON fallbacks. Exit status 1 when
the schemas cannot be generated (the message names the file and JSON pointer),
2 for bad usage or an unreadable source.`

func runGenerate(e *env, args []string) int {
	fs := newFlagSet("generate", "adcpgen generate [--spec SOURCE] --out DIR [--package NAME] [--include GLOB]... [--report]", generateDescription)
	var src sourceFlags
	src.register(fs, e, "schema source: directory, .tgz bundle or version (also $ADCP_SPEC; default: the embedded core schemas)")
	out := fs.String("out", "", "output directory (created when missing)")
	pkg := fs.String("package", "", "Go package name (default: the last element of --out)")
	var include stringList
	fs.Var(&include, "include", "select root schemas by tree-relative glob, e.g. 'media-buy/*-response.json'; repeatable\n(default: every schema; referenced schemas always come along)")
	report := fs.Bool("report", false, "also print every raw-JSON fallback with its pointer and reason, and the files skipped")
	rest, done, code := parseArgs(e, "generate", fs, args)
	if done {
		return code
	}
	if len(rest) > 0 {
		return usageError(e, "generate", "unexpected argument %q", rest[0])
	}
	if *out == "" {
		return usageError(e, "generate", "missing --out DIR")
	}
	name := *pkg
	if name == "" {
		name = defaultPackage(*out)
	}
	if err := generator.CheckPackageName(name); err != nil {
		return usageError(e, "generate", "%v; set --package", err)
	}
	tree, err := src.open(context.Background(), true)
	if err != nil {
		return usageError(e, "generate", "%v", err)
	}
	opts := generator.Options{Tree: tree, Package: name, Include: include}
	if opts.ImportPath, err = generator.ImportPathOf(*out); err != nil {
		fmt.Fprintf(e.stderr, "adcpgen generate: --out %s: %v\n", *out, err)
		return exitFailure
	}
	opts.SpecName, opts.Source = describeSource(tree, src.spec)
	opts.Command = regenerateCommand(src.spec, name, include)
	res, err := generator.Generate(opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "adcpgen generate: %v\n", err)
		return exitFailure
	}
	if err := generator.WriteDir(*out, res.Files); err != nil {
		fmt.Fprintf(e.stderr, "adcpgen generate: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "adcpgen: %d types in %d files, %d raw-JSON fallbacks (%d untyped leaves) from %s → %s\n",
		res.Types, len(res.Files), len(res.Fallbacks), len(res.Fallbacks)-res.Unexpected(), opts.Source, *out)
	if *report {
		text, err := templates.Render("report.tmpl", res)
		if err != nil {
			fmt.Fprintf(e.stderr, "adcpgen generate: %v\n", err)
			return exitFailure
		}
		e.stdout.Write(text)
	}
	return exitOK
}

// defaultPackage derives a package name from the output directory.
func defaultPackage(out string) string {
	base := out
	if i := strings.LastIndexAny(strings.TrimRight(out, `/\`), `/\`); i >= 0 {
		base = strings.TrimRight(out, `/\`)[i+1:]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// describeSource names the spec for the package doc, without absolute paths.
func describeSource(tree *spec.Tree, source string) (specName, shown string) {
	switch {
	case tree.Kind == spec.KindEmbedded:
		return "adcpgen's embedded AdCP core schemas", "embedded core schemas"
	case spec.IsVersion(source):
		return "AdCP " + tree.Version, "AdCP " + source
	}
	name := "AdCP " + tree.Version
	if tree.Version == "" {
		name = "an AdCP schema tree"
	}
	return name, display(source)
}

// regenerateCommand is the command line doc.go shows, run in the package
// directory (so it is the same wherever --out pointed).
func regenerateCommand(source, pkg string, include []string) string {
	parts := []string{"go", "run", "github.com/adcpgen/adcpgen/cmd/adcpgen", "generate"}
	if source != "" {
		parts = append(parts, "--spec", shellQuote(display(source)))
	}
	parts = append(parts, "--out", ".", "--package", pkg)
	for _, g := range include {
		parts = append(parts, "--include", shellQuote(g))
	}
	return strings.Join(parts, " ")
}
