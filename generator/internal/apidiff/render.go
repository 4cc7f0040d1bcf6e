package apidiff

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// grouped reports categories whose changes are listed under their Go type.
func grouped(c Category) bool { return c == CatFields || c == CatEnums || c == CatUnions }

// style spells identifiers: as is in text, in backquotes in markdown.
type style func(string) string

func plain(s string) string { return s }

func backquote(s string) string {
	if s == "" {
		return s
	}
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// Describe says what a change is in one line of plain text.
func (ch Change) Describe() string { return describe(ch, plain, false) }

// describe words a change. nested leaves out the type when a heading
// already names it.
func describe(ch Change, q style, nested bool) string {
	owner := func(sep string) string {
		if nested {
			return ""
		}
		return q(ch.Type) + sep
	}
	// member names a field, arm or constant: its Go name with the JSON name.
	member := func() string {
		switch {
		case ch.GoName != "" && ch.GoName != ch.Member:
			return q(ch.GoName) + " (" + q(ch.Member) + ")"
		case ch.GoName != "":
			return q(ch.GoName)
		}
		return q(ch.Member)
	}
	arrow := func() string { return q(ch.From) + " → " + q(ch.To) }
	switch ch.Kind {
	case TypeAdded:
		return "added " + ch.To + " " + q(ch.Type)
	case TypeRemoved:
		return "removed " + ch.From + " " + q(ch.Type)
	case TypeRenamed:
		return "renamed " + arrow()
	case TypeKindChanged:
		return q(ch.Type) + " changed from " + ch.From + " to " + ch.To
	case TypeUnderlyingChanged:
		return q(ch.Type) + " underlying type " + arrow()
	case TypeDeprecated:
		return q(ch.Type) + " deprecated"

	case FieldAdded:
		return owner(": ") + "added " + member() + " " + q(ch.To)
	case FieldRemoved:
		return owner(": ") + "removed " + member() + " (was " + q(ch.From) + ")"
	case FieldRenamed:
		return owner(": ") + "field " + q(ch.Member) + " renamed " + arrow()
	case FieldTypeChanged:
		return owner(": ") + member() + " type " + arrow()
	case FieldRequired, FieldOptional:
		word := "required"
		if ch.Kind == FieldOptional {
			word = "optional"
		}
		s := owner(": ") + member() + " became " + word
		if ch.From != ch.To {
			s += ", " + arrow()
		}
		return s
	case FieldDeprecated:
		return owner(": ") + member() + " deprecated"
	case ExtraKept:
		return owner(": ") + "keeps undeclared members in " + q(ch.GoName) + " " + q(ch.To)
	case ExtraRejected:
		return owner(": ") + "rejects undeclared members (" + q(ch.GoName) + " " + q(ch.From) + " removed)"
	case ExtraTypeChanged:
		return owner(": ") + "undeclared members field " + arrow()

	case EnumValueAdded:
		return owner(": ") + "added " + q(ch.Member) + " (" + q(ch.GoName) + ")"
	case EnumValueRemoved:
		return owner(": ") + "removed " + q(ch.Member) + " (" + q(ch.GoName) + ")"
	case EnumConstRenamed:
		return owner(": ") + q(ch.Member) + " constant renamed " + arrow()
	case EnumValueDeprecated:
		return owner(": ") + q(ch.Member) + " (" + q(ch.GoName) + ") deprecated"

	case ArmAdded:
		return owner(": ") + "added arm " + q(ch.GoName) + " " + q(ch.To)
	case ArmRemoved:
		return owner(": ") + "removed arm " + q(ch.GoName) + " (was " + q(ch.From) + ")"
	case ArmRenamed:
		return owner(": ") + "arm renamed " + arrow()
	case ArmTypeChanged:
		return owner(": ") + "arm " + q(ch.GoName) + " type " + arrow()

	case ToolAdded:
		return "added tool " + q(ch.Member) + " (" + toolTypes(ch.To, q) + ")"
	case ToolRemoved:
		return "removed tool " + q(ch.Member) + " (was " + toolTypes(ch.From, q) + ")"
	case ToolDeprecated:
		return "tool " + q(ch.Member) + " deprecated"
	case ToolRequestChanged:
		return "tool " + q(ch.Member) + " request type " + arrow()
	case ToolResponseChanged:
		return "tool " + q(ch.Member) + " response type " + arrow()
	case ToolAsyncAdded:
		return "tool " + q(ch.Member) + " added async status " + q(ch.GoName) + " " + q(ch.To)
	case ToolAsyncRemoved:
		return "tool " + q(ch.Member) + " removed async status " + q(ch.GoName) + " (was " + q(ch.From) + ")"
	case ToolAsyncChanged:
		return "tool " + q(ch.Member) + " async status " + q(ch.GoName) + " type " + arrow()

	case CodeAdded:
		return "added error code " + q(ch.Member) + recovery(ch.To)
	case CodeRemoved:
		return "removed error code " + q(ch.Member) + recovery(ch.From)
	case CodeRecoveryChanged:
		return "error code " + q(ch.Member) + " recovery " + orNone(ch.From) + " → " + orNone(ch.To)
	case CodeDeprecated:
		return "error code " + q(ch.Member) + " deprecated"
	case DefaultRecoveryChanged:
		return "recovery for unlisted codes " + orNone(ch.From) + " → " + orNone(ch.To)

	case DetailsAdded:
		return q(ch.Member) + " details typed as " + q(ch.To)
	case DetailsRemoved:
		return q(ch.Member) + " details no longer typed (was " + q(ch.From) + ")"
	case DetailsTypeChanged:
		return q(ch.Member) + " details type " + arrow()
	case AlternateDetailsAdded:
		return q(ch.Member) + " gained alternate details shape " + q(ch.To)
	case AlternateDetailsRemoved:
		return q(ch.Member) + " lost alternate details shape " + q(ch.From)
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s %s %s %s", ch.Kind, q(ch.Type), q(ch.Member), ch.From, ch.To))
}

// toolTypes spells "Request → Response".
func toolTypes(s string, q style) string {
	req, resp, ok := strings.Cut(s, " → ")
	if !ok {
		return q(s)
	}
	return q(req) + " → " + q(resp)
}

func recovery(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// section is the changes of one category with one breaking-ness.
func (r *Report) section(c Category, breaking bool) []Change {
	var out []Change
	for _, ch := range r.Changes {
		if ch.Category == c && ch.Breaking == breaking {
			out = append(out, ch)
		}
	}
	return out
}

func sideName(s Side) string {
	switch {
	case s.Source != "" && s.Version != "" && s.Source != s.Version:
		return s.Version + " (" + s.Source + ")"
	case s.Version != "":
		return s.Version
	case s.Source != "":
		return s.Source
	}
	return "(unnamed)"
}

func sideStats(s Side) string {
	return fmt.Sprintf("%d types, %d tools, %d error codes", s.Types, s.Tools, s.Codes)
}

// WriteText writes the report for a terminal: counts, then the breaking and
// the compatible changes by category, field, enum and arm changes under
// their type.
func (r *Report) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "Go API changes from AdCP %s to %s\n", sideName(r.From), sideName(r.To))
	fmt.Fprintf(b, "  from: %s\n  to:   %s\n\n", sideStats(r.From), sideStats(r.To))
	fmt.Fprintf(b, "  %-14s %9s %11s\n", "", "breaking", "compatible")
	for _, n := range r.Categories {
		fmt.Fprintf(b, "  %-14s %9d %11d\n", n.Category, n.Breaking, n.Compatible)
	}
	fmt.Fprintf(b, "  %-14s %9d %11d\n", "total", r.Breaking, r.Compatible)
	for _, breaking := range []bool{true, false} {
		title, total := "BREAKING", r.Breaking
		if !breaking {
			title, total = "COMPATIBLE", r.Compatible
		}
		if total == 0 {
			continue
		}
		fmt.Fprintf(b, "\n%s (%d)\n", title, total)
		for _, c := range Categories {
			list := r.section(c, breaking)
			if len(list) == 0 {
				continue
			}
			fmt.Fprintf(b, "\n  %s (%d)\n", c, len(list))
			last := ""
			for i, ch := range list {
				line := describe(ch, plain, grouped(c))
				if breaking {
					line += " — " + ch.Reason
				}
				if !grouped(c) {
					fmt.Fprintf(b, "    %s\n", line)
					continue
				}
				if i == 0 || ch.Type != last {
					fmt.Fprintf(b, "    %s\n", ch.Type)
					last = ch.Type
				}
				fmt.Fprintf(b, "      %s\n", line)
			}
		}
	}
	if len(r.Changes) == 0 {
		fmt.Fprintf(b, "\nNo changes.\n")
	}
	return b.Flush()
}

// WriteMarkdown writes the report as Markdown that also reads well as
// plain text: a summary table, then one heading per category with the
// breaking changes (and why they break) before the compatible ones.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# Go API changes: AdCP %s → %s\n\n", sideName(r.From), sideName(r.To))
	fmt.Fprintf(b, "- from: %s\n- to: %s\n\n", sideStats(r.From), sideStats(r.To))
	verdict := "**Nothing breaks** a Go program written against the old package."
	if r.Breaking > 0 {
		verdict = fmt.Sprintf("**%d breaking** and %d compatible changes for a Go program written against the old package.", r.Breaking, r.Compatible)
	}
	fmt.Fprintf(b, "%s\n\n", verdict)
	fmt.Fprintf(b, "| category      | breaking | compatible |\n|---------------|---------:|-----------:|\n")
	for _, n := range r.Categories {
		fmt.Fprintf(b, "| %-13s | %8d | %10d |\n", n.Category, n.Breaking, n.Compatible)
	}
	fmt.Fprintf(b, "| %-13s | %8d | %10d |\n", "**total**", r.Breaking, r.Compatible)
	for _, c := range Categories {
		n := r.Count(c)
		if n.Breaking+n.Compatible == 0 {
			continue
		}
		fmt.Fprintf(b, "\n## %s%s (%d breaking, %d compatible)\n", strings.ToUpper(string(c[:1])), c[1:], n.Breaking, n.Compatible)
		for _, breaking := range []bool{true, false} {
			list := r.section(c, breaking)
			if len(list) == 0 {
				continue
			}
			if breaking {
				fmt.Fprintf(b, "\n### Breaking\n\n")
			} else {
				fmt.Fprintf(b, "\n### Compatible\n\n")
			}
			last := ""
			for i, ch := range list {
				line := describe(ch, backquote, grouped(c))
				if breaking {
					line += " — " + ch.Reason
				}
				if !grouped(c) {
					fmt.Fprintf(b, "- %s\n", line)
					continue
				}
				if i == 0 || ch.Type != last {
					fmt.Fprintf(b, "- %s\n", backquote(ch.Type))
					last = ch.Type
				}
				fmt.Fprintf(b, "  - %s\n", line)
			}
		}
	}
	return b.Flush()
}

// WriteJSON writes the report as indented JSON (see the package doc for
// the shape), followed by a newline.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
