package lower

import (
	"path"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

func goName(s string) string { return naming.GoName(s) }

// titleName turns a schema title into a type name, or "" when the title is
// a sentence rather than a name.
func titleName(title string) string {
	title = strings.TrimSpace(title)
	if title == "" || len(strings.Fields(title)) > 6 || strings.ContainsAny(title, ":()[]{}.,;!?'\"/") {
		return ""
	}
	return goName(title)
}

// ownName is a title or definition name that may name a type without its
// file's or parent's name: one of two words or more. A single word
// ("Required", "Logo", "Unassign") means little out of its context, and
// is the name a new schema is likeliest to want too.
func ownName(name string) string {
	if len(naming.Words(name)) < 2 {
		return ""
	}
	return name
}

// fileName is the type name a file's base name suggests.
func fileName(p string) string {
	return goName(strings.TrimSuffix(path.Base(p), ".json"))
}

// absoluteHints returns name candidates for a root, definition or other
// referenced node, best first, and its rank.
func absoluteHints(s *schema.Schema) ([]string, int) {
	p := s.Doc.Path
	file := fileName(p)
	dir := goName(path.Dir(p))
	if dir == "" || path.Dir(p) == "." {
		dir = "Root"
	}
	var hints []string
	rank := rankDefinition
	switch {
	case s.Loc.Pointer == "":
		rank = rankRoot
		hints = []string{titleName(s.Title), file, dir + file, goName(strings.TrimSuffix(p, ".json"))}
	case isDefinition(s.Loc.Pointer):
		name, _, _ := lastTwo(s.Loc.Pointer)
		def := goName(name)
		qualified := naming.JoinName(file, def)
		if qualified == file+def && naming.Repeats(qualified) {
			qualified = "" // brand.json#/definitions/brand is not BrandBrand
		}
		hints = []string{ownName(titleName(s.Title)), ownName(def), qualified, def, naming.JoinName(dir+file, def)}
	default:
		tokens := goName(strings.ReplaceAll(s.Loc.Pointer, "/", " "))
		hints = []string{ownName(titleName(s.Title)), file + tokens, dir + file + tokens}
	}
	return compact(hints), rank
}

func compact(list []string) []string {
	out := list[:0]
	for _, s := range list {
		if s == "" {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

// itemSuffixes names array elements: "issues" items are "Issue" (then
// "IssuesItem", when another type has that name), other arrays' items
// take "Item".
func itemSuffixes(base []string) []string {
	if len(base) == 0 {
		return []string{"Item"}
	}
	var out, then []string
	for _, s := range base {
		switch one := naming.Singular(s); {
		case one != s:
			out = append(out, one)
			then = append(then, s+"Item")
		case strings.HasSuffix(s, "Item"):
			out = append(out, s+"Entry") // by_catalog_item's items: not ByCatalogItemItem
		default:
			out = append(out, s+"Item")
		}
	}
	return append(out, then...)
}

// markIndirect breaks recursive value types: a required (or nullable)
// struct field that leads back to its own struct by value becomes a
// pointer.
func markIndirect(types []*ir.Type) {
	state := map[*ir.Type]int{} // 1 visiting, 2 done
	var visit func(t *ir.Type)
	visit = func(t *ir.Type) {
		state[t] = 1
		for _, f := range t.Fields {
			if !f.Required && f.Type.Kind != ir.RefNullable {
				continue
			}
			next := valueTarget(f.Type)
			if next == nil {
				continue
			}
			switch state[next] {
			case 1:
				f.Indirect = true
			case 0:
				visit(next)
			}
		}
		state[t] = 2
	}
	for _, t := range types {
		if t.Kind == ir.KindStruct && state[t] == 0 {
			visit(t)
		}
	}
}

// valueTarget returns the struct a field holds by value, or nil.
func valueTarget(r *ir.Ref) *ir.Type {
	if r.Kind == ir.RefNullable {
		r = r.Elem
	}
	if r.Kind == ir.RefNamed && r.Named.Kind == ir.KindStruct {
		return r.Named
	}
	return nil
}
