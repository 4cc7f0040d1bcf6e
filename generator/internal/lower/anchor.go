package lower

import (
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// anchorInlineTypes names every inline type after the nearest enclosing
// schema of its own file that has a type, whatever referrer lowered it
// first. Without it, a new file that merges an old one (allOf) and sorts
// earlier would rename the old file's inline types. The referrer-based name
// stays as a fallback candidate.
func (b *builder) anchorInlineTypes() {
	for _, t := range b.pkg.Types {
		if t.Rank != rankInline || t.Parent == nil || t.Loc.Pointer == "" || t.Merged.File != "" {
			continue
		}
		node := t.Loc
		doc := b.set.Doc(node.File)
		if doc == nil {
			continue
		}
		tokens := wire.SplitPointer(node.Pointer)
		for i := len(tokens) - 1; i >= 0; i-- {
			anc := doc.At(joinPointer(tokens[:i]))
			if anc == nil {
				continue
			}
			at := b.named[anc]
			if at == nil {
				at = b.armNodes[anc]
			}
			if at == nil || at == t {
				continue
			}
			if at == t.Parent {
				break // already anchored on its own schema
			}
			suffix := structuralSuffix(tokens[i:])
			if suffix == "" {
				break
			}
			t.AltParent, t.AltSuffixes = t.Parent, t.Suffixes
			t.Parent, t.Suffixes = at, []string{suffix}
			if n := len(tokens); n >= 2 && tokens[n-1] == "items" {
				// Then the array's own name: MetricsWindowsItem, when
				// another type has MetricsWindow.
				if whole := structuralSuffix(tokens[i:n-1]) + "Item"; whole != suffix {
					t.Suffixes = append(t.Suffixes, whole)
				}
			}
			break
		}
	}
}

func joinPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString(wire.PointerToken(t))
	}
	return b.String()
}

// structuralSuffix names the path from an enclosing schema to a node:
// property and definition names, "Item" (or the singular) for array items,
// "Value" for map values; combinator arms add nothing.
func structuralSuffix(tokens []string) string {
	var parts []string
	for i := 0; i < len(tokens); i++ {
		switch tok := tokens[i]; tok {
		case "properties", "definitions", "$defs", "dependencies", "dependentSchemas":
			if i+1 < len(tokens) {
				parts = append(parts, goName(tokens[i+1]))
				i++
			}
		case "patternProperties":
			parts = append(parts, "Value")
			i++
		case "additionalProperties":
			parts = append(parts, "Value")
		case "items":
			if n := len(parts); n > 0 {
				if one := naming.Singular(parts[n-1]); one != parts[n-1] {
					parts[n-1] = one
					continue
				}
			}
			parts = append(parts, "Item")
		case "allOf", "anyOf", "oneOf":
			i++ // the index: arms merge into their parent
		default:
			parts = append(parts, goName(tok))
		}
	}
	return strings.Join(parts, "")
}
