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
		tells wraps supports echoes mirrors redirects requires includes excludes accepts computes emits
		fires ensures permits prevents`)
	// Auxiliaries and modals: the description is a predicate ("Was
	// active, now terminated" is "X was active, now terminated").
	auxiliaries = words("was were is are has have had can cannot could may might must should will would does did")
	// Words a description of a state or a condition opens with, as a
	// complement of "is" when a preposition, a conjunction or an adverb
	// follows ("Present when ...", "True only if ...", "Set to true to
	// ..."), besides past participles (words in -ed).
	complements = words(`present absent required optional true false null empty omitted valid available applicable
		mandatory ignored allowed unique set sent built made given taken shown known held kept paid read
		written chosen bound run found seen done put left split`)
	// Words that open a complement's condition or manner.
	conditions = words(`by to when for as in on at from after before only if with per under via unless until
		once while whenever iff exactly otherwise and or during within without because since so then
		whether where always never`)
	// Prepositions a description may open with ("For categorical
	// features, the set of valid values").
	prepositions = words("for with per in on at from after before during within without under via by to as")
	// Demonstratives and possessives open a noun phrase as articles do
	// ("This format's own identifier").
	demonstratives = words("this these those its their")
	// Determiners after which a word in -s is a verb ("Lists the ...")
	// rather than a plural noun ("Lists of ...").
	determiners = words("the a an this that these those its their whether which what how when where who all any each every one no only")
	// Imperatives, none of them also a noun ("Request parameters for ..."
	// is not an order): "Select which ..." is "X is used to select which
	// ...".
	imperatives = words(`select use include exclude specify provide define describe indicate identify
		send apply configure limit restrict override replace choose pick declare fork optimize echo create
		validate suppress render pause resume cancel fetch compute emit skip reject accept filter return`)
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
// product offered by a seller", "Was active, now terminated" becomes
// "X was active, now terminated", "Present when ..." "X is present when
// ...", "Is this trademark mine?" "X asks: is this trademark mine?".
// Text that already begins with name is left as it is. Markdown emphasis
// and links are plain text first, so "**Required**" is a word.
func summarize(name, text string) string {
	text = strings.TrimSpace(inlineMarkdown(text))
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
	joiner, body := summaryParts(text)
	if joiner == "" {
		return name + " " + body
	}
	return name + " " + joiner + " " + body
}

// summaryParts splits the first sentence summarize writes into the words
// that join the name to the text ("is", "says", "is used to", "" for a
// verb) and the text that follows them.
func summaryParts(text string) (joiner, body string) {
	fields := strings.Fields(text)
	first := fields[0]
	key := strings.ToLower(strings.TrimRight(first, ",:;.!?"))
	next := ""
	if len(fields) > 1 {
		next = strings.ToLower(strings.Trim(fields[1], ",:;.!?()"))
	}
	r, _ := utf8.DecodeRuneInString(text)
	switch {
	case !unicode.IsLetter(r) || key == "see":
		return "is documented as:", text
	case asks(text) && (auxiliaries[key] || interrogative[key]):
		return "asks:", lowerFirst(text)
	case articles[key], quantifiers[key]:
		return "is", lowerFirst(text)
	case demonstratives[key]:
		// "This person's role" is a noun phrase; "This entry failed
		// because ..." a clause, which the name means.
		if len(fields) > 2 {
			third := strings.ToLower(strings.Trim(fields[2], ",:;.!?()"))
			if strings.HasSuffix(third, "ed") || auxiliaries[third] {
				return "means", lowerFirst(text)
			}
		}
		return "is", lowerFirst(text)
	case interrogative[key]:
		return "says", lowerFirst(text)
	case verbs[key], auxiliaries[key]:
		return "", lowerFirst(text)
	case strings.HasSuffix(key, "s") && !strings.HasSuffix(key, "ss") && determiners[next] && !articles[key]:
		return "", lowerFirst(text) // "Lists the ...": a verb
	case imperatives[key] && next != "on" && next != "of":
		return "is used to", lowerFirst(text)
	case (complements[key] || strings.HasSuffix(key, "ed")) && (conditions[next] || strings.HasSuffix(next, "ly") ||
		next == "" || first != strings.TrimRight(first, ",;:")):
		return "is", lowerFirst(text)
	case prepositions[key]:
		// "For categorical features, the set of valid values": the
		// condition goes after the joiner of what follows the comma.
		if lead, rest, ok := strings.Cut(text, ", "); ok && !strings.Contains(lead, ". ") && rest != "" {
			switch j, b := summaryParts(rest); j {
			case "is the":
				return "is,", lowerFirst(lead) + ", the " + b
			case "is", "says", "is used to":
				return j + ",", lowerFirst(lead) + ", " + b
			}
		}
		return "applies", lowerFirst(text)
	}
	// "Advertiser account is fixed to one currency" is a clause, which
	// the name means; "Number of items" a noun phrase.
	// So is "Seller declined the request": a verb in -ed with its object
	// ("Identifier assigned by the seller" is a noun phrase).
	for i, f := range fields[1:min(3, len(fields))] {
		w := strings.ToLower(f)
		if auxiliaries[w] && w != "can" && w != "will" {
			return "means", lowerFirst(text)
		}
		if strings.HasSuffix(w, "ed") && i+2 < len(fields) && (articles[strings.ToLower(fields[i+2])] ||
			demonstratives[strings.ToLower(fields[i+2])]) && !prepositions[strings.ToLower(fields[i])] {
			return "means", lowerFirst(text)
		}
		if f != strings.TrimRight(f, ",;:.") {
			break
		}
	}
	return "is the", lowerFirst(text)
}

// asks reports text whose first sentence is a question.
func asks(text string) bool {
	end := len(text)
	for _, stop := range []string{". ", "? ", "! ", "\n"} {
		if i := strings.Index(text, stop); i >= 0 && i < end {
			end = i
		}
	}
	return strings.HasSuffix(strings.TrimSpace(text[:min(end+1, len(text))]), "?")
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
	member string // the JSON member, the arm's name, or a pattern of member names
	kind   string // "member", "item", "value", "arm", "pattern"
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
		for _, p := range t.Patterns {
			visit(t, p.Pattern, ir.MapOf(p.Type), "pattern")
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
		// The pointer as a reader writes it: "~1" is "/", "~0" is "~".
		loc := t.Loc.File + "#" + strings.NewReplacer("~1", "/", "~0", "~").Replace(t.Loc.Pointer)
		return t.Name + " is defined by " + loc + "."
	}
	switch p.kind {
	case "pattern":
		return t.Name + " is a value of the members of " + p.owner.Name + " whose names match " + p.member + "."
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
