package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

const generateDescription = `
Generate Go types with strict decoders from AdCP JSON Schemas. Files named
*_gen.go and doc.go are written into --out; files there that adcpgen did not
write are never overwritten, and generated files a previous run wrote but this
one does not are removed, and so is internal/types, where an earlier adcpgen
wrote half of a whole version's types. The package is one directory, so go
doc shows every type as itself.

Names survive upgrades: when --out (or --names-from) holds a package adcpgen
generated before, every type generated from a schema that package had keeps the
name it had there, and no new type takes one of its names; a fresh directory
gets the naming policy's names (see the generated doc.go), the same on every
machine. --fresh-names ignores the earlier package.

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
	namesFrom := fs.String("names-from", "", "keep the type names of the package generated in this directory (default: --out)")
	fresh := fs.Bool("fresh-names", false, "name every type by the naming policy alone, ignoring the package in --out")
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
	if *fresh && *namesFrom != "" {
		return usageError(e, "generate", "--names-from and --fresh-names exclude each other")
	}
	tree, err := src.open(context.Background(), true)
	if err != nil {
		return usageError(e, "generate", "%v", err)
	}
	opts := generator.Options{Tree: tree, Package: name, Include: include}
	if !*fresh {
		from := *namesFrom
		if from == "" {
			from = *out
		}
		if opts.Previous, err = generator.ReadPrevious(from); err != nil {
			fmt.Fprintf(e.stderr, "adcpgen generate: %v\n", err)
			return exitFailure
		}
	}
	opts.SpecName, opts.Source = describeSource(tree, src.spec)
	opts.Command = regenerateCommand(src.spec, *out, name, include)
	if file, line, ok := goGenerateDirective(e); ok {
		opts.Command, opts.Directive = line, directiveFile(*out, file)
		if s := directiveSpec(line); spec.IsVersion(s) {
			opts.Source = "AdCP " + s
		} else if s != "" && !filepath.IsAbs(s) {
			opts.Source = s // as written in the directive
		}
	}
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
		text, err := res.Report()
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

// describeSource names the spec for the package doc as the user gave it:
// a version, or a path as written (an absolute path, which names the
// machine the generator ran on, only by its last element).
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
	if filepath.IsAbs(source) {
		return name, filepath.Base(source)
	}
	return name, filepath.ToSlash(source)
}

// goGenerateDirective returns the //go:generate directive that runs this
// command, as written: go generate runs it in the directory of $GOFILE,
// with $GOLINE the directive's line.
func goGenerateDirective(e *env) (file, line string, ok bool) {
	file, n := e.getenv("GOFILE"), e.getenv("GOLINE")
	no, err := strconv.Atoi(n)
	if file == "" || err != nil || no < 1 {
		return "", "", false
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", "", false
	}
	lines := strings.Split(string(data), "\n")
	if no > len(lines) {
		return "", "", false
	}
	text, found := strings.CutPrefix(strings.TrimRight(lines[no-1], "\r"), "//go:generate ")
	if !found {
		return "", "", false
	}
	return file, strings.TrimSpace(text), true
}

// directiveFile names the file holding the directive relative to the
// package directory: "gen.go", or "../gen.go" for a directive that
// generates into ./adcp.
func directiveFile(out, file string) string {
	abs, err1 := filepath.Abs(file)
	dir, err2 := filepath.Abs(out)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(file)
}

// directiveSpec is the --spec argument a directive passes, as written.
func directiveSpec(line string) string {
	f := strings.Fields(line)
	for i, a := range f {
		if v, ok := strings.CutPrefix(a, "--spec="); ok {
			return strings.Trim(v, `"'`)
		}
		if (a == "--spec" || a == "-spec") && i+1 < len(f) {
			return strings.Trim(f[i+1], `"'`)
		}
	}
	return ""
}

// regenerateCommand is the command line doc.go shows when no go:generate
// directive ran the generator: one to run in the package directory (so
// it is the same wherever --out pointed), with a spec path made relative
// to that directory.
func regenerateCommand(source, out, pkg string, include []string) string {
	parts := []string{"go", "run", "github.com/adcpgen/adcpgen/cmd/adcpgen", "generate"}
	if source != "" {
		parts = append(parts, "--spec", shellQuote(relativeTo(out, source)))
	}
	parts = append(parts, "--out", ".", "--package", pkg)
	for _, g := range include {
		parts = append(parts, "--include", shellQuote(g))
	}
	return strings.Join(parts, " ")
}
