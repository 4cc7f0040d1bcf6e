package validate

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Issue is one schema violation, shaped like an entry of AdCP's
// error.issues[] (core/error.json) so it can go straight into a
// VALIDATION_ERROR.
type Issue struct {
	// Pointer is an RFC 6901 JSON pointer into the payload. As with Ajv's
	// instancePath, "required" and "additionalProperties" point at the
	// object, and Message names the property.
	Pointer string `json:"pointer"`
	Message string `json:"message"`
	// Keyword is the JSON Schema keyword that rejected the value
	// ("required", "type", "format", "enum", "pattern", "oneOf", ...).
	Keyword string `json:"keyword"`
	// SchemaID is the $id of the schema file holding the rejecting keyword,
	// in the tree's own style, plus "#<pointer>" to the sub-schema.
	SchemaID string `json:"schema_id,omitempty"`
}

func (i Issue) String() string {
	p := i.Pointer
	if p == "" {
		p = "(root)"
	}
	return fmt.Sprintf("%s: %s (%s)", p, i.Message, i.Keyword)
}

// issuesFrom flattens the library's error tree into sorted issues.
func (v *Validator) issuesFrom(ve *jsonschema.ValidationError) []Issue {
	var out []Issue
	v.collect(ve, &out)
	sortIssues(out)
	return dedupe(out)
}

func (v *Validator) collect(ve *jsonschema.ValidationError, out *[]Issue) {
	kw, schemaLoc := splitKeyword(ve)
	if len(ve.Causes) == 0 {
		*out = append(*out, v.leafIssues(ve, kw, schemaLoc)...)
		return
	}
	switch kw {
	case "oneOf", "anyOf":
		v.collectAlternatives(ve, kw, schemaLoc, out)
	case "contains":
		*out = append(*out, v.issue(ve, kw, schemaLoc, ve.Message))
	default: // wrappers: $ref, allOf/N, then, else, and grouping nodes
		for _, c := range ve.Causes {
			v.collect(c, out)
		}
	}
}

// collectAlternatives reports a failed oneOf/anyOf by the alternative
// closest to the payload: first those whose shape fits (see
// isShapeMismatch), then the one that got deepest into the
// payload (say the success arm of a response that matched up to
// /products/3/pricing_options), then the one with fewest issues. When two
// alternatives tie at the oneOf's own level, one issue summarises why each
// failed instead.
func (v *Validator) collectAlternatives(ve *jsonschema.ValidationError, kw, schemaLoc string, out *[]Issue) {
	own := v.pointer(ve.InstanceLocation)
	type branch struct {
		issues   []Issue
		mismatch bool
		depth    int
	}
	branches := make([]branch, len(ve.Causes))
	for i, c := range ve.Causes {
		var b branch
		v.collect(c, &b.issues)
		// The library lists some names in map order: sort, so that the
		// summary below names each branch's first issue deterministically.
		sortIssues(b.issues)
		for _, x := range b.issues {
			b.depth = max(b.depth, pointerDepth(x.Pointer))
			if isShapeMismatch(x, own) {
				b.mismatch = true
			}
		}
		branches[i] = b
	}
	better := func(a, b branch) int { // >0 when a is closer than b
		switch {
		case a.mismatch != b.mismatch:
			if b.mismatch {
				return 1
			}
			return -1
		case a.depth != b.depth:
			return a.depth - b.depth
		}
		return len(b.issues) - len(a.issues)
	}
	best, tied := 0, false
	for i := 1; i < len(branches); i++ {
		switch c := better(branches[i], branches[best]); {
		case c > 0:
			best, tied = i, false
		case c == 0:
			tied = true
		}
	}
	if len(branches) > 0 && (!tied || branches[best].depth > pointerDepth(own)) {
		*out = append(*out, branches[best].issues...)
		return
	}
	var why []string
	for i, b := range branches {
		if len(b.issues) > 0 {
			why = append(why, fmt.Sprintf("#%d: %s", i, b.issues[0].Message))
		}
	}
	*out = append(*out, v.issue(ve, kw, schemaLoc, fmt.Sprintf("matches none of the %s alternatives (%s)", kw, strings.Join(why, "; "))))
}

// isShapeMismatch reports an issue showing that an alternative is not the
// one the payload meant: a const discriminator on a direct property that
// differs, or, at the alternative's own value, a wrong type, a missing
// required property, or no fitting nested alternative.
func isShapeMismatch(x Issue, own string) bool {
	if x.Keyword == "const" {
		return pointerDepth(x.Pointer) == pointerDepth(own)+1
	}
	if x.Pointer != own {
		return false
	}
	switch x.Keyword {
	case "required", "type", "oneOf", "anyOf":
		return true
	}
	return false
}

// leafIssues turns one failing keyword into issues: one per property for
// required and additionalProperties, whose library messages list several.
func (v *Validator) leafIssues(ve *jsonschema.ValidationError, kw, schemaLoc string) []Issue {
	switch kw {
	case "required":
		if names, ok := parseQuotedList(strings.TrimPrefix(ve.Message, "missing properties: ")); ok {
			var is []Issue
			for _, n := range names {
				is = append(is, v.issue(ve, kw, schemaLoc, "missing required property "+strconv.Quote(n)))
			}
			return is
		}
	case "additionalProperties":
		msg := strings.TrimSuffix(strings.TrimPrefix(ve.Message, "additionalProperties "), " not allowed")
		if names, ok := parseQuotedList(msg); ok {
			var is []Issue
			for _, n := range names {
				is = append(is, v.issue(ve, kw, schemaLoc, "property "+strconv.Quote(n)+" is not allowed"))
			}
			return is
		}
	case "false":
		return []Issue{v.issue(ve, kw, schemaLoc, "no value is allowed here")}
	}
	return []Issue{v.issue(ve, kw, schemaLoc, ve.Message)}
}

func (v *Validator) issue(ve *jsonschema.ValidationError, kw, schemaLoc, msg string) Issue {
	return Issue{Pointer: v.pointer(ve.InstanceLocation), Message: msg, Keyword: kw, SchemaID: v.displayID(schemaLoc)}
}

// pointer turns the library's instance location (tokens %-escaped for use
// in URIs) into a plain RFC 6901 pointer.
func (v *Validator) pointer(loc string) string {
	if loc == "" {
		return ""
	}
	toks := strings.Split(loc, "/")
	for i, t := range toks {
		if u, err := url.PathUnescape(t); err == nil {
			toks[i] = u
		}
	}
	return strings.Join(toks, "/")
}

func pointerDepth(p string) int { return strings.Count(p, "/") }

// keywords the library reports, by the last token of their location.
var leafKeywords = map[string]bool{
	"type": true, "const": true, "enum": true, "format": true, "required": true,
	"minProperties": true, "maxProperties": true, "additionalProperties": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "additionalItems": true,
	"minLength": true, "maxLength": true, "pattern": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true, "not": true,
	"oneOf": true, "anyOf": true, "minContains": true, "maxContains": true, "contains": true,
	"contentEncoding": true, "contentMediaType": true, "$ref": true, "then": true, "else": true,
	"propertyNames": true,
}

// splitKeyword splits an error's absolute keyword location into the
// keyword and the location of the schema holding it.
func splitKeyword(ve *jsonschema.ValidationError) (kw, schemaLoc string) {
	loc := ve.AbsoluteKeywordLocation
	base, frag, _ := strings.Cut(loc, "#")
	toks := strings.Split(frag, "/") // toks[0] is "" (the fragment starts with '/')
	n := len(toks)
	join := func(k int) string {
		if k <= 1 {
			return base
		}
		return base + "#" + strings.Join(toks[:k], "/")
	}
	isIndex := func(s string) bool { _, err := strconv.Atoi(s); return err == nil }
	switch {
	case n >= 4 && (toks[n-3] == "dependencies" || toks[n-3] == "dependentRequired") && isIndex(toks[n-1]):
		return "dependencies", join(n - 3)
	case n >= 3 && (toks[n-2] == "allOf" || toks[n-2] == "anyOf" || toks[n-2] == "oneOf") && isIndex(toks[n-1]):
		return toks[n-2], join(n - 2)
	case n >= 2 && leafKeywords[toks[n-1]]:
		k := toks[n-1]
		if k == "minContains" {
			k = "contains" // draft-07 has only contains
		}
		return k, join(n - 1)
	case ve.Message == "not allowed": // a false schema
		return "false", loc
	}
	return "", loc
}

// parseQuotedList reads the library's list of quoted names: 'a', 'b\'c'.
func parseQuotedList(s string) ([]string, bool) {
	var names []string
	for s != "" {
		if s[0] != '\'' {
			return nil, false
		}
		i := 1
		for i < len(s) && s[i] != '\'' {
			if s[i] == '\\' {
				i++ // skip the escaped character, which may be a quote
			}
			i++
		}
		if i >= len(s) {
			return nil, false
		}
		raw := s[1:i]
		// The library writes %q's inner text with \" unescaped and ' escaped.
		unq, err := strconv.Unquote(`"` + strings.ReplaceAll(strings.ReplaceAll(raw, `\'`, `'`), `"`, `\"`) + `"`)
		if err != nil {
			return nil, false
		}
		names = append(names, unq)
		s = strings.TrimPrefix(s[i+1:], ", ")
	}
	return names, len(names) > 0
}

// sortIssues orders issues by pointer (array indexes numerically), then
// keyword, message and schema.
func sortIssues(is []Issue) {
	sort.SliceStable(is, func(a, b int) bool {
		x, y := is[a], is[b]
		if c := comparePointers(x.Pointer, y.Pointer); c != 0 {
			return c < 0
		}
		if x.Keyword != y.Keyword {
			return x.Keyword < y.Keyword
		}
		if x.Message != y.Message {
			return x.Message < y.Message
		}
		return x.SchemaID < y.SchemaID
	})
}

func comparePointers(a, b string) int {
	ta, tb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if ta[i] == tb[i] {
			continue
		}
		na, ea := strconv.Atoi(ta[i])
		nb, eb := strconv.Atoi(tb[i])
		if ea == nil && eb == nil {
			if na < nb {
				return -1
			}
			return 1
		}
		return strings.Compare(ta[i], tb[i])
	}
	return len(ta) - len(tb)
}

func dedupe(is []Issue) []Issue {
	out := is[:0]
	for i, x := range is {
		if i > 0 && x == is[i-1] {
			continue
		}
		out = append(out, x)
	}
	return out
}
