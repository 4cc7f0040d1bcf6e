package emit

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
)

// A doc comment's first sentence is what go doc, pkg.go.dev and editors
// show as the summary, and Go's convention (staticcheck's ST1020-ST1022)
// is that it begins with the name it documents. Schema descriptions are
// written to stand alone ("Response payload for get_products", "Whether
// the buyer ..."), so summarize joins the name to the description's
// first words the way a person would.

// Words a description opens with, by how the name joins them.
var (
	articles      = words("a an the")
	interrogative = words("how whether what which when where why who if")
	quantifiers   = words("one either any each every all some both zero no none only")
	// Third person verbs, none of them also a plural noun ("Records of
	// ..." is not "X records of ..."): "Declares the ..." is "X declares
	// the ...".
	verbs = words(`applies allows captures carries configures contains declares defines describes
		determines enables encodes enumerates explains expresses extends gives governs holds identifies
		indicates overrides provides replaces represents restricts returns selects specifies summarizes
		tells wraps`)
	// Imperatives, none of them also a noun ("Request parameters for ..."
	// is not an order): "Select which ..." is "X is used to select which
	// ...".
	imperatives = words(`select use include exclude specify provide define describe indicate identify
		send apply configure limit restrict override replace choose pick declare fork`)
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// deprecatedLead matches a description that opens by saying it is
// deprecated ("**DEPRECATED**: use x", "Deprecated. Use x").
var deprecatedLead = regexp.MustCompile(`(?i)^\**\s*deprecated\s*\**\s*[:.\-—]*\s*`)

// summarize returns text, schema prose, with its first sentence made to
// begin with name: "A product offered by a seller" becomes "Product is a
// product offered by a seller". Text that already begins with name is
// left as it is.
func summarize(name, text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return ""
	}
	if strings.HasPrefix(text, name+" ") {
		return text
	}
	if loc := deprecatedLead.FindStringIndex(text); loc != nil {
		rest := strings.TrimSpace(text[loc[1]:])
		if rest == "" {
			return name + " is deprecated."
		}
		return name + " is deprecated: " + lowerFirst(rest)
	}
	first, _, _ := strings.Cut(text, " ")
	key := strings.ToLower(strings.TrimRight(first, ",:;."))
	r, _ := utf8.DecodeRuneInString(text)
	switch {
	case !unicode.IsLetter(r):
		return name + " is documented as: " + text
	case articles[key], quantifiers[key]:
		return name + " is " + lowerFirst(text)
	case interrogative[key]:
		return name + " says " + lowerFirst(text)
	case verbs[key]:
		return name + " " + lowerFirst(text)
	case imperatives[key]:
		return name + " is used to " + lowerFirst(text)
	}
	return name + " is the " + lowerFirst(text)
}

// lowerFirst lowers the first word of text when it is an ordinary
// capitalised word ("Response", "Machine-readable"); initialisms and names
// ("URL", "AdCP", "iOS") keep their case.
func lowerFirst(text string) string {
	end := strings.IndexAny(text, " ,:;.")
	if end < 0 {
		end = len(text)
	}
	w := text[:end]
	for i, r := range w {
		if i == 0 && !unicode.IsUpper(r) || i > 0 && (unicode.IsUpper(r) || unicode.IsDigit(r)) {
			return text
		}
	}
	return strings.ToLower(w) + text[end:]
}

// addsToName reports whether a title says more than the name it gave
// (a title of the name's words in another spelling adds nothing).
func addsToName(title, name string) bool {
	have := map[string]bool{}
	for _, w := range naming.Words(name) {
		have[strings.ToLower(w)] = true
	}
	for _, w := range naming.Words(naming.GoName(title)) {
		if !have[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// place says where a type is used, for the summary of one the schema does
// not describe: the struct member, array or map it is the type of, or
// the union arm it is.
type place struct {
	owner  *ir.Type
	member string // the JSON member, or the arm's name
	kind   string // "member", "item", "value", "arm"
}

// places maps each type to the first place that uses it, preferring its
// naming parent.
func places(types []*ir.Type) map[*ir.Type]place {
	out := map[*ir.Type]place{}
	set := func(t *ir.Type, p place) {
		if old, ok := out[t]; !ok || old.owner != t.Parent && p.owner == t.Parent {
			out[t] = p
		}
	}
	var visit func(owner *ir.Type, member string, r *ir.Ref, kind string)
	visit = func(owner *ir.Type, member string, r *ir.Ref, kind string) {
		switch r.Kind {
		case ir.RefNamed:
			set(r.Named, place{owner, member, kind})
		case ir.RefNullable:
			visit(owner, member, r.Elem, kind)
		case ir.RefSlice:
			if kind == "member" {
				kind = "item"
			}
			visit(owner, member, r.Elem, kind)
		case ir.RefMap:
			if kind == "member" {
				kind = "value"
			}
			visit(owner, member, r.Elem, kind)
		}
	}
	for _, t := range types {
		for _, f := range t.Fields {
			visit(t, f.JSONName, f.Type, "member")
		}
		if t.Extra.Type != nil {
			visit(t, "", ir.MapOf(t.Extra.Type), "value")
		}
		if t.Union != nil {
			for _, a := range t.Union.Arms {
				visit(t, a.GoName, a.Type, "arm")
			}
		}
		if t.Underlying != nil {
			visit(t, "", t.Underlying, "member")
		}
	}
	return out
}

// contextSummary is the first sentence of a type the schema neither
// describes nor titles beyond its name: what it is where it is used.
func contextSummary(t *ir.Type, p place, ok bool) string {
	if !ok {
		return t.Name + " is defined by " + t.Loc.String() + "."
	}
	switch p.kind {
	case "arm":
		return t.Name + " is the " + p.member + " arm of " + p.owner.Name + "."
	case "item":
		if p.member == "" {
			return t.Name + " is an item of " + p.owner.Name + "."
		}
		return t.Name + " is an item of the " + p.member + " array of " + p.owner.Name + "."
	case "value":
		if p.member == "" {
			return t.Name + " is a value of the members of " + p.owner.Name + " it does not declare."
		}
		return t.Name + " is a value of the " + p.member + " map of " + p.owner.Name + "."
	}
	if p.member == "" {
		return t.Name + " is the type " + p.owner.Name + " is defined over."
	}
	return t.Name + " is the type of the " + p.member + " member of " + p.owner.Name + "."
}
