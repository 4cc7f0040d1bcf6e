package generator

import (
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/generator/internal/apidiff"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// DiffOptions say what to compare and how to name the two sides.
type DiffOptions struct {
	// Include selects root schemas by tree-relative glob on both sides, as
	// for Generate; empty means all.
	Include []string
	// FromSource and ToSource name the sources in the report (a version, a
	// relative path); empty means the trees' Source.
	FromSource, ToSource string
	// FreshNames compares with the package to names by the policy alone,
	// as a fresh directory gets it; by default it is named as regenerating
	// over the package from does (Options.Previous), keeping its names.
	FreshNames bool
}

// The report types are defined in generator/internal/apidiff, whose package
// doc states what counts as breaking and the JSON shape.
type (
	// DiffReport lists how the Go API generated from one tree differs from
	// another's, each change marked breaking or compatible for a Go consumer.
	DiffReport = apidiff.Report
	// DiffChange is one change in a DiffReport.
	DiffChange = apidiff.Change
	// DiffSide describes one compared tree.
	DiffSide = apidiff.Side
	// DiffCount is the number of breaking and compatible changes in a category.
	DiffCount = apidiff.Count
	// DiffCategory groups changes: types, fields, enum values, union arms,
	// tools, error codes, error details.
	DiffCategory = apidiff.Category
	// DiffKind says what happened (type-removed, field-required, ...).
	DiffKind = apidiff.Kind
)

// Diff builds the Go API both trees generate (up to naming, without
// rendering code) and compares them: from is the version a program uses
// now, to the one it would upgrade to, generated as regenerating the
// package from's directory gives it (unless FreshNames).
func Diff(from, to *spec.Tree, opts DiffOptions) (*DiffReport, error) {
	if from == nil || to == nil {
		return nil, errors.New("generator: diff needs two schema trees")
	}
	old, _, err := build(from, opts.Include, naming.Keep{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", describeTree(from), err)
	}
	keep := previousOfPackage(old).keep()
	if opts.FreshNames {
		keep = naming.Keep{}
	}
	cur, _, err := build(to, opts.Include, keep)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", describeTree(to), err)
	}
	return apidiff.Compare(old, cur, side(from, opts.FromSource), side(to, opts.ToSource)), nil
}

func side(t *spec.Tree, source string) DiffSide {
	if source == "" {
		source = t.Source
	}
	return DiffSide{Version: t.Version, Source: source}
}

func describeTree(t *spec.Tree) string {
	if t.Source != "" {
		return t.Source
	}
	if t.Version != "" {
		return "AdCP " + t.Version
	}
	return "schema tree"
}
