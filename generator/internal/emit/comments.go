package emit

import (
	"go/doc/comment"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/internal/gocomment"
)

// commentLines turns schema text into comment lines, its Markdown in Go
// doc comment syntax (see markdown.go): prose wrapped, emphasis and links
// as plain text, list items as Go list items, fenced code as an indented
// code block; every character that could end or confuse a // comment is
// replaced. Lines are handed to jennifer already prefixed with "//", so
// nothing in the text can turn them into a /* */ block.
func commentLines(text string) []string {
	text = strings.ToValidUTF8(strings.TrimSpace(text), "\uFFFD")
	if text == "" {
		return nil
	}
	var out []string
	var item []string // the list item being read: marker, then text
	flush := func() {
		if item == nil {
			return
		}
		lead := "   " + item[0] + " "
		if item[0] != "-" {
			lead = "  " + item[0] + " "
		}
		for i, w := range wrap(strings.Join(item[1:], " "), wrapWidth-len(lead)) {
			if i == 0 {
				out = append(out, "//"+lead+w)
			} else {
				out = append(out, "//"+strings.Repeat(" ", len(lead))+w)
			}
		}
		item = nil
	}
	prev := blockBlank
	for _, l := range markdownLines(text) {
		if l.kind != blockMore {
			flush()
		}
		// A list or a code block stands apart from the prose around it.
		if (l.kind == blockCode) != (prev == blockCode) || l.kind == blockText && (prev == blockItem || prev == blockMore) {
			if l.kind != blockBlank && prev != blockBlank {
				out = append(out, "//")
			}
		}
		switch l.kind {
		case blockBlank:
			out = append(out, "//")
		case blockCode:
			if line := strings.TrimRight(cleanLine(l.text), " \t"); line != "" {
				out = append(out, "//\t"+line)
			} else {
				out = append(out, "//")
			}
		case blockItem:
			item = []string{l.marker, inlineMarkdown(cleanLine(strings.TrimSpace(l.text)))}
		case blockMore:
			item = append(item, inlineMarkdown(cleanLine(l.text)))
		default:
			line := strings.TrimRight(cleanLine(l.text), " \t")
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "|") {
				out = append(out, "// "+line)
				break
			}
			for _, w := range wrap(inlineMarkdown(line), wrapWidth) {
				out = append(out, "// "+w)
			}
		}
		prev = l.kind
	}
	flush()
	// Collapse runs of blank comment lines.
	compact := out[:0]
	for i, l := range out {
		if l == "//" && (i == 0 || out[i-1] == "//") {
			continue
		}
		compact = append(compact, l)
	}
	for len(compact) > 0 && compact[len(compact)-1] == "//" {
		compact = compact[:len(compact)-1]
	}
	return proseParagraphs(compact)
}

// proseParagraphs rewrites every one-line paragraph that go/doc/comment
// would read as a section heading so it reads as the sentence it is: a
// schema description such as "A component in an A2UI surface", standing
// alone between blank comment lines, is otherwise printed by gofmt as
// "# A component in an A2UI surface". Callers join blocks of lines with
// blank lines, so a paragraph at either end of lines counts as standing
// alone too. A Markdown heading marker ("# Title") is dropped, and a final
// period makes the line a sentence. Lines of fenced or indented code are
// left as they are.
func proseParagraphs(lines []string) []string {
	fenced := false
	for i, l := range lines {
		text, ok := strings.CutPrefix(l, "// ")
		if !ok {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(text), "```") {
			fenced = !fenced
			continue
		}
		alone := (i == 0 || lines[i-1] == "//") && (i == len(lines)-1 || lines[i+1] == "//")
		if fenced || !alone || strings.HasPrefix(text, " ") || !readsAsHeading(text) {
			continue
		}
		if strings.HasPrefix(text, "#") {
			if text = strings.TrimLeft(text, "# \t"); text == "" {
				text = "#"
			}
		}
		if readsAsHeading(text) {
			text += "."
		}
		lines[i] = "// " + text
	}
	return lines
}

// readsAsHeading reports whether go/doc/comment parses line, as a
// paragraph of its own between two other paragraphs, as a heading (in
// either of its two forms: "# Title", or a capitalised line without final
// punctuation).
func readsAsHeading(line string) bool {
	if !mayBeHeading(line) {
		return false
	}
	var p comment.Parser
	doc := p.Parse("Text.\n\n" + line + "\n\nText.\n")
	for _, b := range doc.Content {
		if _, ok := b.(*comment.Heading); ok {
			return true
		}
	}
	return false
}

// mayBeHeading is a quick test of what every heading has, so most lines
// (field comments start "GoName: ...") skip the parser: a "# " marker, or
// a capital first and a letter or digit last with no colon between.
func mayBeHeading(line string) bool {
	if strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "#\t") {
		return true
	}
	first, _ := utf8.DecodeRuneInString(line)
	last, _ := utf8.DecodeLastRuneInString(line)
	return unicode.IsUpper(first) && (unicode.IsLetter(last) || unicode.IsDigit(last)) && !strings.Contains(line, ":")
}

// wrapWidth is where prose comment lines are wrapped.
const wrapWidth = 96

// wrap breaks a line of prose at spaces so no piece exceeds width (a single
// longer word stays whole).
func wrap(line string, width int) []string {
	var out []string
	for len(line) > width {
		cut := strings.LastIndexByte(line[:width+1], ' ')
		if cut <= 0 {
			cut = strings.IndexByte(line, ' ')
			if cut < 0 {
				break
			}
		}
		out = append(out, strings.TrimRight(line[:cut], " "))
		line = strings.TrimLeft(line[cut:], " ")
	}
	return append(out, line)
}

// cleanLine makes one line of text safe inside a // comment.
func cleanLine(s string) string { return gocomment.Line(s) }

// comments renders lines as jennifer comments, one statement per line.
func comments(lines []string) []jen.Code {
	out := make([]jen.Code, 0, len(lines))
	for _, l := range lines {
		out = append(out, jen.Comment(l))
	}
	return out
}

// typeDoc builds a type's doc comment. Its first sentence begins with the
// name: the schema's description, else a title that says more than the
// name, else where the type is used (contextSummary). Then the notes,
// Deprecated, and the Schema line: where the schema is, its title when
// the summary does not already say it, and its digest (see
// generator.ReadPrevious).
func (s *descSet) typeDoc(t *ir.Type, notes ...string) []string {
	title := strings.TrimSpace(t.Title)
	description := strings.TrimSpace(t.Description)
	summary, titled := summarize(t.Name, description), false
	if summary == "" && title != "" && addsToName(title, t.Name) {
		summary, titled = t.Name+" is the schema titled "+strconvQuote(title)+".", true
	}
	if summary == "" {
		p, ok := s.places[t]
		summary = contextSummary(t, p, ok)
	}
	line := "Schema: " + schemaRef(t)
	if t.Merged.File != "" {
		line += " merged into " + mergedRef(t)
	}
	if title != "" && !titled {
		line += " (" + strconvQuote(title) + ")"
	}
	switch {
	case t.Digest != "" && t.TextDigest != "" && t.TextDigest != t.Digest:
		line += ", digests " + t.Digest + " " + t.TextDigest
	case t.Digest != "":
		line += ", digest " + t.Digest
	}
	return docBlock(summary, t.Deprecated, line, notes...)
}

// docBlock builds a doc comment from its summary (prose beginning with the
// name), notes, Deprecated and the Schema line (written as it is, never
// wrapped: tools read it back, see generator.ReadPrevious).
func docBlock(summary string, deprecated bool, schemaLine string, notes ...string) []string {
	lines := commentLines(summary)
	for _, n := range notes {
		if len(lines) > 0 {
			lines = append(lines, "//")
		}
		lines = append(lines, commentLines(n)...)
	}
	if deprecated {
		if len(lines) > 0 {
			lines = append(lines, "//")
		}
		lines = append(lines, "// Deprecated: the schema marks this deprecated.")
	}
	if schemaLine != "" {
		if len(lines) > 0 {
			lines = append(lines, "//")
		}
		lines = append(lines, "// "+cleanLine(schemaLine))
	}
	return lines
}

func strconvQuote(s string) string { return "\"" + strings.ReplaceAll(s, "\"", "'") + "\"" }
