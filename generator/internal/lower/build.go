// Package lower turns loaded schemas into the Go IR: it decides, for every
// schema node a generated package needs, which Go type represents it.
package lower

import (
	"fmt"
	"path"
	"sort"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/load"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

// Options select what to build.
type Options struct {
	// Include lists globs over tree-relative paths (path.Match syntax) that
	// select the root schemas; empty means every schema in the tree.
	Include []string
}

// Ranks order claims on a name: document roots first, then definitions and
// other referenced nodes, then inline types (named after their parent).
const (
	rankRoot = iota
	rankDefinition
	rankInline
)

type builder struct {
	set   *load.Set
	named map[*schema.Schema]*ir.Type
	arms  map[armKey]*ir.Type
	pkg   *ir.Package
	depth int // lowerShape nesting
	// armNodes maps union arm nodes to the merged types made for them.
	armNodes map[*schema.Schema]*ir.Type
	// merged holds types of properties with several schemas, by their locations.
	merged map[string]*ir.Type
	// copies are the types made by merging schemas (a property several
	// allOf members declare, a union arm merged with a base of another
	// place), with the type they were made for.
	copies map[*ir.Type]*ir.Type
	// mergedFrom lists the schemas a merged property's copy was made from.
	mergedFrom map[*ir.Type][]*schema.Schema
}

type armKey struct {
	union *schema.Schema
	index int
}

// Build lowers the selected documents and everything they reference.
func Build(set *load.Set, opts Options) (*ir.Package, error) {
	roots, err := selectRoots(set, opts.Include)
	if err != nil {
		return nil, err
	}
	b := &builder{set: set, named: map[*schema.Schema]*ir.Type{}, arms: map[armKey]*ir.Type{},
		armNodes: map[*schema.Schema]*ir.Type{}, merged: map[string]*ir.Type{}, copies: map[*ir.Type]*ir.Type{},
		mergedFrom: map[*ir.Type][]*schema.Schema{},
		pkg:        &ir.Package{}}
	for _, d := range roots {
		b.namedType(d.Root)
	}
	b.dedupe()
	b.locateCopies()
	b.setDigests()
	b.anchorInlineTypes()
	b.pkg.Fallbacks = sortedUnique(b.pkg.Fallbacks)
	wrapNullableRefs(b.pkg.Types)
	markIndirect(b.pkg.Types)
	return b.pkg, nil
}

func selectRoots(set *load.Set, include []string) ([]*schema.Document, error) {
	if len(include) == 0 {
		return set.Docs, nil
	}
	var out []*schema.Document
	for _, glob := range include {
		if _, err := path.Match(glob, ""); err != nil {
			return nil, fmt.Errorf("--include %q: %w", glob, err)
		}
		n := 0
		for _, d := range set.Docs {
			if ok, _ := path.Match(glob, d.Path); ok {
				out = append(out, d)
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("--include %q matches no schema in %s", glob, set.Tree.Source)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	uniq := out[:0]
	for i, d := range out {
		if i == 0 || out[i-1] != d {
			uniq = append(uniq, d)
		}
	}
	return uniq, nil
}

// namedType returns the named Go type for a referenced or root node. A node
// that only renames another ($ref plus annotations) shares its target's type.
func (b *builder) namedType(s *schema.Schema) *ir.Type {
	if t := aliasTarget(s); t != nil {
		s = t
	}
	if t, ok := b.named[s]; ok {
		return t
	}
	t := b.newType(s)
	t.Hints, t.Rank = absoluteHints(s)
	b.named[s] = t
	b.fill(t, s, nil)
	return t
}

func (b *builder) newType(s *schema.Schema) *ir.Type {
	t := &ir.Type{Loc: s.Loc, SchemaID: s.Doc.ID, Title: s.Title, Description: s.Description, Deprecated: s.Deprecated}
	b.pkg.Types = append(b.pkg.Types, t)
	return t
}

// fill decides a named type's kind and contents from its node's shape. sh
// is a precomputed shape (union arms), or nil to collect it from s.
func (b *builder) fill(t *ir.Type, s *schema.Schema, sh *shape) {
	if sh == nil {
		sh = collectShape(s)
	}
	ref, nullable := b.lowerShape(sh, t, nil, nil)
	t.Nullable = nullable
	if t.Kind != 0 {
		return
	}
	// The shape is a plain Go type: define the named type over it.
	t.Underlying = ref
	switch {
	case ref.Kind == ir.RefSlice:
		t.Kind = ir.KindSlice
	case ref.Kind == ir.RefMap:
		t.Kind = ir.KindMap
	case ref.Kind == ir.RefBuiltin && ref.Builtin == ir.Raw:
		t.Kind = ir.KindRaw
	default:
		t.Kind = ir.KindScalar
	}
}

func collectShape(s *schema.Schema) *shape {
	sh := newShape(s)
	sh.collect(s, map[*schema.Schema]bool{})
	return sh
}

// sortedUnique orders fallbacks by location and drops repeats (a node
// lowered again as part of another union arm reports once).
func sortedUnique(list []ir.Fallback) []ir.Fallback {
	sort.SliceStable(list, func(i, j int) bool {
		if a, b := list[i].Loc.String(), list[j].Loc.String(); a != b {
			return a < b
		}
		return list[i].Reason < list[j].Reason
	})
	out := list[:0]
	for i, f := range list {
		if i > 0 && f.Loc == list[i-1].Loc && f.Reason == list[i-1].Reason {
			continue
		}
		out = append(out, f)
	}
	return out
}

func (b *builder) fallback(loc schema.Loc, leaf bool, format string, args ...any) *ir.Ref {
	b.pkg.Fallbacks = append(b.pkg.Fallbacks, ir.Fallback{Loc: loc, Reason: fmt.Sprintf(format, args...), Leaf: leaf})
	return ir.BuiltinRef(ir.Raw)
}
