package emit

import (
	"go/doc/comment"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
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
		{"fenced code is a code block", "Example:\n```json\n{\"a\": 1}\n\n  x\n```\nAfter.", []string{"// Example:", "//", "//\t{\"a\": 1}", "//", "//\t  x", "//", "// After."}},
		{"emphasis and links are plain text", "**Required**: see [the docs](https://x.example/d) or <https://y.example>; *not* a * b, snake_case_name.",
			[]string{"// Required: see the docs (https://x.example/d) or https://y.example; not a * b, snake_case_name."}},
		{"a link in code", "See [`creative.purged`](https://x.example/p) and `**x**`.", []string{"// See `creative.purged` (https://x.example/p) and `**x**`."}},
		{"a list is a Go list", "Modes:\n- **one**: the first\n  continued\n- two\n1. first\nAfter.",
			[]string{"// Modes:", "//   - one: the first continued", "//   - two", "//  1. first", "//", "// After."}},
		{"a rule is no list", "a\n---\nb", []string{"// a", "// ---", "// b"}},
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
		name       string
		summary    string
		deprecated bool
		schema     string
		notes      []string
		want       []string
	}{
		{"summary and schema", "T is the component of an A2UI surface.", false, `Schema: a2ui/component.json# ("A2UI Component")`, nil,
			[]string{"// T is the component of an A2UI surface.", "//", `// Schema: a2ui/component.json# ("A2UI Component")`}},
		{"deprecated with a note", "T is the thing.", true, "Schema: x.json#", []string{"Decoded by key presence"},
			[]string{"// T is the thing.", "//", "// Decoded by key presence.", "//", "// Deprecated: the schema marks this deprecated.", "//", "// Schema: x.json#"}},
		{"a long schema line is not wrapped", "T is it.", false, "Schema: " + strings.Repeat("a/", 60) + "b.json#/properties/x merged into c.json#/anyOf/0", nil,
			[]string{"// T is it.", "//", "// Schema: " + strings.Repeat("a/", 60) + "b.json#/properties/x merged into c.json#/anyOf/0"}},
		{"nothing", "", false, "", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := docBlock(tc.summary, tc.deprecated, tc.schema, tc.notes...)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("docBlock =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			assertNoHeading(t, got)
		})
	}
}

// The first sentence begins with the name, joined to the description the
// way its first word asks.
func TestSummarize(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"A product offered by a seller.", "Product is a product offered by a seller."},
		{"Response payload for get_products task", "Product is the response payload for get_products task"},
		{"Whether the buyer accepts it.", "Product says whether the buyer accepts it."},
		{"How the budget is paced", "Product says how the budget is paced"},
		{"Declares the formats a seller accepts.", "Product declares the formats a seller accepts."},
		{"Select which fields to return.", "Product is used to select which fields to return."},
		{"Request parameters for x", "Product is the request parameters for x"}, // a noun, not an order
		{"One of the standard metrics", "Product is one of the standard metrics"},
		{"URL of the product page", "Product is the URL of the product page"}, // initialisms keep their case
		{"AdCP agent card", "Product is the AdCP agent card"},
		{"Machine-readable reason", "Product is the machine-readable reason"},
		{"Product represents inventory.", "Product represents inventory."}, // begins with the name already
		{"Products of a seller", "Product is the products of a seller"},
		{"**DEPRECATED**: Use format_ids instead.", "Product is deprecated: use format_ids instead."},
		{"Deprecated.", "Product is deprecated."},
		{"`format_id` of the product", "Product is documented as: `format_id` of the product"},
		{"Was active, now terminated — terminal state.", "Product was active, now terminated — terminal state."},
		{"Is this trademark mine? Returns ownership.", "Product asks: is this trademark mine? Returns ownership."},
		{"Present when status is 'pending_approval'.", "Product is present when status is 'pending_approval'."},
		{"True exactly when more assignments exist.", "Product is true exactly when more assignments exist."},
		{"True peak level in dBFS", "Product is the true peak level in dBFS"},
		{"Sent by publisher to router.", "Product is sent by publisher to router."},
		{"Set to true to allow it.", "Product is set to true to allow it."},
		{"Set of asset_type values.", "Product is the set of asset_type values."},
		{"Supports ACP checkout handoff.", "Product supports ACP checkout handoff."},
		{"Lists the formats.", "Product lists the formats."},
		{"Lists of formats.", "Product is the lists of formats."},
		{"Optimize for conversion events.", "Product is used to optimize for conversion events."},
		{"Return on ad spend", "Product is the return on ad spend"},
		{"For categorical features, the set of valid values.", "Product is, for categorical features, the set of valid values."},
		{"For batched delivery, how often to push artifacts.", "Product says, for batched delivery, how often to push artifacts."},
		{"For categorical features, valid values.", "Product is, for categorical features, the valid values."},
		{"For display formats only", "Product applies for display formats only"},
		{"**Required** for sellers.", "Product is required for sellers."},
		{"See [the docs](https://x.example).", "Product is documented as: See the docs (https://x.example)."},
		{"This format's own identifier.", "Product is this format's own identifier."},
		{"This entry failed only because a sibling did.", "Product means this entry failed only because a sibling did."},
		{"Advertiser account is fixed to one currency.", "Product means advertiser account is fixed to one currency."},
		{"Number of items that are late", "Product is the number of items that are late"},
		{"Filter artifacts to one account.", "Product is used to filter artifacts to one account."},
		{"Seller declined the account request.", "Product means seller declined the account request."},
		{"Identifier assigned by the seller.", "Product is the identifier assigned by the seller."},
		{"", ""},
	} {
		if got := summarize("Product", tc.text); got != tc.want {
			t.Errorf("summarize(%q) =\n%q\nwant\n%q", tc.text, got, tc.want)
		}
	}
}

// A type without a description is summarised by a title that says more
// than its name, else by where it is used; the title that says nothing
// new goes to the Schema line.
func TestTypeDoc(t *testing.T) {
	owner := &ir.Type{Kind: ir.KindStruct, Name: "Order", Loc: schema.Loc{File: "core/order.json"}}
	member := &ir.Type{Kind: ir.KindStruct, Name: "OrderLine", Loc: schema.Loc{File: "core/order.json", Pointer: "/properties/lines/items"}}
	titled := &ir.Type{Kind: ir.KindStruct, Name: "HTML5", Title: "Canonical Format: HTML5 Banner", Loc: schema.Loc{File: "formats/html5.json"}}
	plain := &ir.Type{Kind: ir.KindStruct, Name: "Order", Title: "Order", Description: "A customer's order.", Loc: schema.Loc{File: "core/order.json"}}
	loose := &ir.Type{Kind: ir.KindEnum, Name: "Required", Loc: schema.Loc{File: "core/x.json", Pointer: "/definitions/required"}}
	owner.Fields = []*ir.Field{{JSONName: "lines", Type: ir.SliceOf(ir.NamedRef(member))}}
	s := &descSet{places: places([]*ir.Type{owner, member, titled, plain, loose})}
	for _, tc := range []struct {
		t    *ir.Type
		want []string
	}{
		{member, []string{"// OrderLine is an item of the lines array of Order.", "//", "// Schema: core/order.json#/properties/lines/items"}},
		{titled, []string{`// HTML5 is the schema titled "Canonical Format: HTML5 Banner".`, "//", "// Schema: formats/html5.json#"}},
		{plain, []string{"// Order is a customer's order.", "//", `// Schema: core/order.json# ("Order")`}},
		{loose, []string{"// Required is defined by core/x.json#/definitions/required.", "//", "// Schema: core/x.json#/definitions/required"}},
	} {
		if got := s.typeDoc(tc.t); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", tc.t.Name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
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
		assertNoHeading(t, docBlock(summarize("T", d), true, "Schema: x.json#", "A note"))
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
