package emit

import (
	"go/doc/comment"
	"strings"
	"testing"
)

func TestCommentLines(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct {
		name, in string
		want     []string
	}{
		{"plain sentence", "A value.", []string{"// A value."}},
		{"short title-like line becomes a sentence", "A component in an A2UI surface",
			[]string{"// A component in an A2UI surface."}},
		{"Markdown heading marker is dropped", "# Pricing rules", []string{"// Pricing rules."}},
		{"heading-like paragraph between others", "First paragraph.\n\nShort title\n\nLast paragraph.",
			[]string{"// First paragraph.", "//", "// Short title.", "//", "// Last paragraph."}},
		{"a line inside a paragraph is no heading", "Short title\nand more text",
			[]string{"// Short title", "// and more text"}},
		{"lowercase start is no heading", "lowercase words", []string{"// lowercase words"}},
		{"a colon is no heading", "Note: see below", []string{"// Note: see below"}},
		{"a hash without a space is no heading", "#hashtag", []string{"// #hashtag"}},
		{"marker alone stays", "# #", []string{"// #"}},
		{"fenced code is kept", "Example:\n\n```\nGet It\n```", []string{"// Example:", "//", "// ```", "// Get It", "// ```"}},
		{"indented code is kept", "Example:\n\n  Get It", []string{"// Example:", "//", "//   Get It"}},
		{"blank runs collapse", "a.\n\n\n\nb.\n\n", []string{"// a.", "//", "// b."}},
		{"comment terminators are inert", "ends */ here /* x", []string{"// ends */ here /* x"}},
		{"control characters become spaces", "a\x00b\u2028c\td", []string{"// a b c d"}},
		{"invalid UTF-8 is replaced", "a\xffb.", []string{"// a b."}},
		{"long prose wraps at spaces", long, []string{"// " + strings.TrimSpace(strings.Repeat("word ", 19)), "// " + strings.TrimSpace(strings.Repeat("word ", 11))}},
		{"one long word stays whole", strings.Repeat("x", 120), []string{"// " + strings.Repeat("x", 120)}},
		{"tables are not wrapped", "| " + long + " |", []string{"// | " + long + " |"}},
		{"empty text", "  \n ", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := commentLines(tc.in)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("commentLines(%q) =\n%s\nwant\n%s", tc.in, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestDocBlock(t *testing.T) {
	tests := []struct {
		name               string
		title, description string
		deprecated         bool
		ref                string
		notes              []string
		want               []string
	}{
		{"title and a title-like description", "A2UI Component", "A component in an A2UI surface", false, "a2ui/component.json#", nil,
			[]string{`// T is the "A2UI Component" schema.`, "//", "// A component in an A2UI surface.", "//", "// Schema: a2ui/component.json#"}},
		{"description only", "", "Filter criteria", false, "", nil, []string{"// T: Filter criteria"}},
		{"quotes in the title", `The "x" thing`, "", false, "", nil, []string{`// T is the "The 'x' thing" schema.`}},
		{"deprecated with a note", "", "", true, "x.json#", []string{"Decoded by key presence"},
			[]string{"// Decoded by key presence.", "//", "// Deprecated: the schema marks this deprecated.", "//", "// Schema: x.json#"}},
		{"nothing", "", "", false, "", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := docBlock("T", tc.title, tc.description, tc.deprecated, tc.ref, tc.notes...)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("docBlock =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			assertNoHeading(t, got)
		})
	}
}

// Descriptions as the published schemas write them, each standing alone
// between the summary and the Schema line, must never parse as headings.
func TestDocBlockNeverHasHeadings(t *testing.T) {
	for _, d := range []string{
		"Standard delivery metrics that can be reported at media buy, package, or creative level",
		"DAAST (Digital Audio Ad Serving Template) tag for third-party audio ad serving",
		"Operation failed — financials not available",
		"# Overview\n\nText.\n\n## Details\n\nMore text",
		"Intro.\n\nA Title Line\n\nBody.\n\nAnother Title 2",
		"Version 3.0 of the protocol",
		"The buyer's view",
	} {
		assertNoHeading(t, docBlock("T", "Title", d, true, "x.json#", "A note"))
	}
}

func assertNoHeading(t *testing.T, lines []string) {
	t.Helper()
	var text strings.Builder
	for _, l := range lines {
		l = strings.TrimPrefix(strings.TrimPrefix(l, "//"), " ")
		text.WriteString(l + "\n")
	}
	var p comment.Parser
	for _, b := range p.Parse(text.String()).Content {
		if _, ok := b.(*comment.Heading); ok {
			t.Errorf("heading in\n%s", text.String())
		}
	}
}

// mayBeHeading only saves parsing: it must hold for every line the parser
// reads as a heading.
func TestMayBeHeadingIsNecessary(t *testing.T) {
	for _, line := range []string{
		"A component in an A2UI surface", "Éclair pricing", "Version 3", "# Title", "#\tTitle", "The buyer's view",
		"DAAST (Digital Audio Ad Serving Template) tag", "Ends with a period.", "lower start", "Key: value",
		"Uses e.g. abbreviations", "Operation failed — financials not available", "X",
	} {
		var p comment.Parser
		heading := false
		for _, b := range p.Parse("Text.\n\n" + line + "\n\nText.\n").Content {
			_, ok := b.(*comment.Heading)
			heading = heading || ok
		}
		if heading && !mayBeHeading(line) {
			t.Errorf("%q is a heading, but mayBeHeading says it cannot be", line)
		}
		if heading != readsAsHeading(line) {
			t.Errorf("readsAsHeading(%q) = %v, the parser says %v", line, !heading, heading)
		}
	}
}
