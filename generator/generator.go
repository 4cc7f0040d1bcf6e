// Package generator turns AdCP JSON Schemas into a Go package. It is the
// importable entry point; the stages live under generator/internal:
// load (files, $id/$ref resolution) → schema (the model) → lower (Go IR) →
// naming (one pass, written policy) → emit (jennifer) → format.
package generator

import (
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"runtime/debug"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/emit"
	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/load"
	"github.com/adcpgen/adcpgen/generator/internal/lower"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/generator/internal/render"
	"github.com/adcpgen/adcpgen/internal/gocomment"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// Options say what to generate.
type Options struct {
	// Tree is the opened schema tree.
	Tree *spec.Tree
	// Package is the Go package name.
	Package string
	// Include selects root schemas by tree-relative glob; empty means all.
	Include []string
	// SpecName describes the source in the package doc ("AdCP 3.1.19").
	SpecName string
	// Source names the source in the package doc and the regenerate line:
	// never an absolute path (use a version or a relative path).
	Source string
	// Command is the command line that regenerates the package: the
	// //go:generate directive that ran the generator (see Directive), or
	// a command to run in the package's directory.
	Command string
	// Directive, when go generate ran the generator, is the file holding
	// the directive, relative to the package's directory ("../gen.go").
	Directive string
	// Previous is the generation this one replaces (ReadPrevious of the
	// output directory): every type generated from a schema it had keeps
	// the name it had there, and no new type takes one of its names. Nil
	// names by the policy alone (see the generated doc.go).
	Previous *Previous
}

// File is one generated file.
type File struct {
	// Name is relative to the package directory: "core_error_gen.go".
	Name string
	Data []byte
}

// Fallback is a place that became json.RawMessage.
type Fallback struct {
	Loc    string // file#/pointer
	Reason string
	// Leaf: the schema itself leaves the value untyped.
	Leaf bool
}

// Skipped is a JSON file of the tree that is not a schema.
type Skipped struct {
	Path   string
	Reason string
}

// Result is a generated package.
type Result struct {
	Files     []File
	Types     int
	Fallbacks []Fallback
	Skipped   []Skipped
	// Missing lists what the registries could not derive from the tree.
	Missing []string
}

// InternalError is a generator bug caught instead of crashing the caller.
type InternalError struct {
	Panic any
	Stack []byte
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error in adcpgen (please report it with the schema that caused it): %v", e.Panic)
}

// Generate loads the tree, builds the Go types and renders every file.
func Generate(opts Options) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, &InternalError{Panic: p, Stack: debug.Stack()}
		}
	}()
	if opts.Tree == nil {
		return nil, errors.New("generator: no schema tree")
	}
	if err := CheckPackageName(opts.Package); err != nil {
		return nil, err
	}
	pkg, set, err := build(opts.Tree, opts.Include, opts.Previous.keep())
	if err != nil {
		return nil, err
	}
	files, err := emit.Emit(pkg, emit.Options{Package: opts.Package})
	if err != nil {
		return nil, err
	}
	res = &Result{Types: len(pkg.Types)}
	for _, f := range files {
		res.Files = append(res.Files, File{Name: f.Name, Data: f.Data})
	}
	doc, err := docFile(opts)
	if err != nil {
		return nil, err
	}
	res.Files = append([]File{doc}, res.Files...)
	for _, fb := range pkg.Fallbacks {
		res.Fallbacks = append(res.Fallbacks, Fallback{Loc: fb.Loc.String(), Reason: fb.Reason, Leaf: fb.Leaf})
	}
	for _, s := range set.Skipped {
		res.Skipped = append(res.Skipped, Skipped{Path: s.Path, Reason: s.Reason})
	}
	if pkg.Registry != nil {
		res.Missing = pkg.Registry.Missing
	}
	return res, nil
}

// build runs the pipeline up to naming: load, lower, registries, names.
func build(tree *spec.Tree, include []string, keep naming.Keep) (*ir.Package, *load.Set, error) {
	set, err := load.Load(tree)
	if err != nil {
		return nil, nil, err
	}
	pkg, err := lower.Build(set, lower.Options{Include: include})
	if err != nil {
		return nil, nil, err
	}
	if pkg.Registry, err = lower.BuildRegistry(set, pkg); err != nil {
		return nil, nil, err
	}
	naming.Assign(pkg, keep)
	return pkg, set, nil
}

func docFile(opts Options) (File, error) {
	version := opts.Tree.Version
	if version == "" {
		version = "(not stated by the tree)"
	}
	src, err := render.Template("doc.go.tmpl", map[string]string{
		"Package":      opts.Package,
		"SpecName":     gocomment.Line(opts.SpecName),
		"Version":      gocomment.Line(version),
		"Source":       gocomment.Line(opts.Source),
		"Checksum":     opts.Tree.Checksum,
		"Command":      gocomment.Line(opts.Command),
		"Directive":    gocomment.Line(opts.Directive),
		"NamingPolicy": naming.Policy,
	})
	if err != nil {
		return File{}, err
	}
	formatted, err := format.Source(src)
	if err != nil {
		return File{}, fmt.Errorf("formatting doc.go: %w", err)
	}
	return File{Name: "doc.go", Data: formatted}, nil
}

// CheckPackageName rejects names that are not usable Go package names.
func CheckPackageName(name string) error {
	if name == "" {
		return errors.New("package name is empty")
	}
	if !token.IsIdentifier(name) || token.IsKeyword(name) {
		return fmt.Errorf("package name %q is not a Go identifier", name)
	}
	if name != strings.ToLower(name) {
		return fmt.Errorf("package name %q should be lower case", name)
	}
	return nil
}

// Unexpected counts fallbacks where the schema says more than the Go type.
func (r *Result) Unexpected() int {
	n := 0
	for _, f := range r.Fallbacks {
		if !f.Leaf {
			n++
		}
	}
	return n
}

// Leaves counts fallbacks where the schema itself leaves the value untyped.
func (r *Result) Leaves() int { return len(r.Fallbacks) - r.Unexpected() }

// Report is the coverage report generate --report prints: every raw-JSON
// fallback with its file#/pointer and reason, the JSON files that are not
// schemas, and what the registries could not derive.
func (r *Result) Report() ([]byte, error) { return render.Template("report.tmpl", r) }
