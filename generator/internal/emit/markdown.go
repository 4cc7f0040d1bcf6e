package emit

import (
	"regexp"
	"strconv"
	"strings"
)

// Schema descriptions are Markdown, which go doc and pkg.go.dev print as
// it is ("**Required**", "[adcp#3666](https://...)"). The doc comments say
// the same in Go doc comment syntax: emphasis as plain words, a link as
// its text and address, a list as a Go list (an indented "- " or "1. "
// item), a fenced block as an indented code block.

var (
	// strong matches **text** and __text__; emphasis *text* and _text_
	// where the markers stand against the words they mark, which begin and
	// end with a letter or digit (a * b is arithmetic, snake_case_names are
	// names, */ ends a comment).
	strong   = regexp.MustCompile(`\*\*([^*\n]+?)\*\*|(^|[^\w])__([^_\n]+?)__([^\w]|$)`)
	emphasis = regexp.MustCompile(`(^|[\s(])[*_](\w[^*_\n]*?\w|\w)[*_]([\s).,;:!?]|$)`)
	// link matches [text](address) and its reference-free forms.
	link     = regexp.MustCompile(`\[([^\]\n]*)\]\(([^)\s]+)\)`)
	autolink = regexp.MustCompile(`<(https?://[^>\s]+)>`)
	// listItem matches a Markdown list item: its indentation, its marker
	// ("-", "*", "+" or a number) and its text.
	listItem = regexp.MustCompile(`^(\s*)([-*+]|[0-9]{1,3}[.)])\s+(.*)$`)
)

// inlineMarkdown writes a line's Markdown emphasis and links as plain
// text: "**Required** see [the docs](https://x)" is "Required see the docs
// (https://x)". Code spans are left as they are, backquotes included.
func inlineMarkdown(s string) string {
	if !strings.ContainsAny(s, "*_[<") {
		return s
	}
	// Code spans stand aside while the rest is rewritten: a placeholder
	// each (NUL never reaches here: cleanLine made it a space).
	var spans []string
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, part := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("\x00" + strconv.Itoa(len(spans)) + "\x00")
			spans = append(spans, "`"+part+"`")
			continue
		}
		if i > 0 && i%2 == 1 {
			b.WriteByte('`') // an unclosed backquote
		}
		b.WriteString(part)
	}
	out := link.ReplaceAllStringFunc(b.String(), func(m string) string {
		sub := link.FindStringSubmatch(m)
		text, addr := strings.TrimSpace(sub[1]), sub[2]
		if text == "" || text == addr {
			return addr
		}
		return text + " (" + addr + ")"
	})
	out = autolink.ReplaceAllString(out, "$1")
	out = strong.ReplaceAllString(out, "$1$2$3$4")
	out = emphasis.ReplaceAllString(out, "$1$2$3")
	for i, span := range spans {
		out = strings.Replace(out, "\x00"+strconv.Itoa(i)+"\x00", span, 1)
	}
	return out
}

// blockKind is what a line of a description is in its Markdown.
type blockKind int

const (
	blockText blockKind = iota // prose
	blockItem                  // the first line of a list item
	blockMore                  // a list item's next line
	blockCode                  // a line of a fenced code block
	blockBlank
)

// mdLine is one line of a description, classified.
type mdLine struct {
	kind   blockKind
	marker string // blockItem: "-" or "1."
	text   string
}

// markdownLines classifies the lines of a description: fenced code
// (without its fences), list items and their continuation lines, prose,
// blank lines.
func markdownLines(text string) []mdLine {
	var out []mdLine
	fenced, inItem := false, false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			fenced = !fenced
			inItem = false
			out = append(out, mdLine{kind: blockBlank})
			continue
		}
		switch {
		case fenced:
			out = append(out, mdLine{kind: blockCode, text: strings.TrimRight(line, " \t")})
		case trimmed == "":
			inItem = false
			out = append(out, mdLine{kind: blockBlank})
		case listItem.MatchString(line) && !strings.HasPrefix(trimmed, "**") && !isRule(trimmed):
			m := listItem.FindStringSubmatch(line)
			marker := "-"
			if m[2][0] >= '0' && m[2][0] <= '9' {
				marker = strings.TrimRight(m[2], ".)") + "."
			}
			inItem = true
			out = append(out, mdLine{kind: blockItem, marker: marker, text: m[3]})
		case inItem && trimmed != line && (line[0] == ' ' || line[0] == '\t'):
			// An indented line goes on with the item; one that is not ends
			// the list (descriptions rarely mean Markdown's lazy lines).
			out = append(out, mdLine{kind: blockMore, text: trimmed})
		default:
			inItem = false
			out = append(out, mdLine{kind: blockText, text: line})
		}
	}
	return out
}

// isRule reports a Markdown horizontal rule ("---", "***").
func isRule(s string) bool {
	return len(s) >= 3 && strings.Trim(s, "-*_ ") == ""
}
