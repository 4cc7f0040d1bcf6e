package synth

import (
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// match reports whether v satisfies n: a draft-07 evaluator for the
// keywords AdCP's schemas use. Patterns RE2 cannot express are taken as
// matching; formats are checked for the shapes this package generates.
func (t *Tree) match(n node, v any) bool { return t.matchDepth(n, v, 0) }

const maxEvalDepth = 64

func (t *Tree) matchAll(conj []node, v any) bool {
	for _, n := range conj {
		if !t.match(n, v) {
			return false
		}
	}
	return true
}

func (t *Tree) matchDepth(n node, v any, depth int) bool {
	if depth > maxEvalDepth {
		return true
	}
	switch b := n.v.(type) {
	case bool:
		return b
	case map[string]any:
	default:
		return true
	}
	m := n.obj()
	if ref, ok := m["$ref"].(string); ok { // draft-07: siblings of $ref are ignored
		r, err := t.resolve(n.doc, ref)
		if err != nil {
			return false
		}
		return t.matchDepth(r, v, depth+1)
	}
	d := depth + 1
	if ty, ok := m["type"]; ok && !typeMatches(ty, v) {
		return false
	}
	if c, ok := m["const"]; ok && !equal(c, v) {
		return false
	}
	if e, ok := m["enum"].([]any); ok {
		found := false
		for _, x := range e {
			if equal(x, v) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	for _, s := range n.list("allOf") {
		if !t.matchDepth(s, v, d) {
			return false
		}
	}
	if arms := n.list("anyOf"); len(arms) > 0 {
		ok := false
		for _, s := range arms {
			if t.matchDepth(s, v, d) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if arms := n.list("oneOf"); len(arms) > 0 {
		count := 0
		for _, s := range arms {
			if t.matchDepth(s, v, d) {
				count++
			}
		}
		if count != 1 {
			return false
		}
	}
	if s, ok := n.sub("not"); ok && t.matchDepth(s, v, d) {
		return false
	}
	if s, ok := n.sub("if"); ok {
		branch := "else"
		if t.matchDepth(s, v, d) {
			branch = "then"
		}
		if b, ok := n.sub(branch); ok && !t.matchDepth(b, v, d) {
			return false
		}
	}
	switch x := v.(type) {
	case *Obj:
		return t.matchObject(n, x, d)
	case []any:
		return t.matchArray(n, x, d)
	case string:
		return t.matchString(n, x)
	}
	if f := num(v); !math.IsNaN(f) {
		return matchNumber(m, f)
	}
	return true
}

func typeMatches(ty any, v any) bool {
	got := jsonType(v)
	one := func(want string) bool {
		return want == got || (want == "number" && got == "integer")
	}
	switch x := ty.(type) {
	case string:
		return one(x)
	case []any:
		for _, w := range x {
			if s, ok := w.(string); ok && one(s) {
				return true
			}
		}
		return false
	}
	return true
}

func (t *Tree) matchObject(n node, o *Obj, d int) bool {
	m := n.obj()
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok && !o.Has(s) {
				return false
			}
		}
	}
	if k, ok := m["minProperties"]; ok && float64(len(o.Members)) < num(k) {
		return false
	}
	if k, ok := m["maxProperties"]; ok && float64(len(o.Members)) > num(k) {
		return false
	}
	props := n.props("properties")
	pats := n.props("patternProperties")
	addl, hasAddl := n.sub("additionalProperties")
	names, hasNames := n.sub("propertyNames")
	for _, mem := range o.Members {
		if hasNames && !t.matchDepth(names, mem.Key, d) {
			return false
		}
		matched := false
		if p, ok := props[mem.Key]; ok {
			matched = true
			if !t.matchDepth(p, mem.Val, d) {
				return false
			}
		}
		for pat, p := range pats {
			if re := t.regexp(pat); re != nil && re.MatchString(mem.Key) {
				matched = true
				if !t.matchDepth(p, mem.Val, d) {
					return false
				}
			}
		}
		if !matched && hasAddl && !t.matchDepth(addl, mem.Val, d) {
			return false
		}
	}
	if deps, ok := m["dependencies"].(map[string]any); ok {
		for key, dep := range deps {
			if !o.Has(key) {
				continue
			}
			switch x := dep.(type) {
			case []any:
				for _, r := range x {
					if s, ok := r.(string); ok && !o.Has(s) {
						return false
					}
				}
			default:
				if !t.matchDepth(node{doc: n.doc, v: x}, o, d) {
					return false
				}
			}
		}
	}
	return true
}

func (t *Tree) matchArray(n node, a []any, d int) bool {
	m := n.obj()
	if k, ok := m["minItems"]; ok && float64(len(a)) < num(k) {
		return false
	}
	if k, ok := m["maxItems"]; ok && float64(len(a)) > num(k) {
		return false
	}
	if u, _ := m["uniqueItems"].(bool); u {
		for i := range a {
			for j := i + 1; j < len(a); j++ {
				if equal(a[i], a[j]) {
					return false
				}
			}
		}
	}
	switch items := m["items"].(type) {
	case []any:
		addl, hasAddl := n.sub("additionalItems")
		for i, e := range a {
			if i < len(items) {
				if !t.matchDepth(node{doc: n.doc, v: items[i]}, e, d) {
					return false
				}
			} else if hasAddl && !t.matchDepth(addl, e, d) {
				return false
			}
		}
	case nil:
	default:
		s := node{doc: n.doc, v: items}
		for _, e := range a {
			if !t.matchDepth(s, e, d) {
				return false
			}
		}
	}
	if c, ok := n.sub("contains"); ok {
		found := false
		for _, e := range a {
			if t.matchDepth(c, e, d) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (t *Tree) matchString(n node, s string) bool {
	m := n.obj()
	runes := float64(utf8.RuneCountInString(s))
	if k, ok := m["minLength"]; ok && runes < num(k) {
		return false
	}
	if k, ok := m["maxLength"]; ok && runes > num(k) {
		return false
	}
	if p, ok := m["pattern"].(string); ok {
		if re := t.regexp(p); re != nil && !re.MatchString(s) {
			return false
		}
	}
	if f, ok := m["format"].(string); ok && !formatOK(f, s) {
		return false
	}
	return true
}

func matchNumber(m map[string]any, f float64) bool {
	if k, ok := m["minimum"]; ok && f < num(k) {
		return false
	}
	if k, ok := m["maximum"]; ok && f > num(k) {
		return false
	}
	if k, ok := m["exclusiveMinimum"]; ok && f <= num(k) {
		return false
	}
	if k, ok := m["exclusiveMaximum"]; ok && f >= num(k) {
		return false
	}
	if k, ok := m["multipleOf"]; ok {
		q := f / num(k)
		if math.Abs(q-math.Round(q)) > 1e-9 {
			return false
		}
	}
	return true
}

var (
	uuidRE     = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	hostnameRE = regexp.MustCompile(`^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$`)
)

// formatOK checks the formats the validator asserts, roughly as strictly.
func formatOK(format, s string) bool {
	switch format {
	case "date-time":
		_, err := time.Parse(time.RFC3339Nano, s)
		return err == nil
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	case "uri":
		u, err := url.Parse(s)
		return err == nil && u.Scheme != "" && !strings.ContainsAny(s, " \\")
	case "uri-reference":
		_, err := url.Parse(s)
		return err == nil
	case "email":
		a, err := mail.ParseAddress(s)
		return err == nil && a.Address == s
	case "uuid":
		return uuidRE.MatchString(s)
	case "hostname":
		return len(s) <= 253 && hostnameRE.MatchString(s)
	case "uri-template":
		return strings.Count(s, "{") == strings.Count(s, "}")
	}
	return true
}
