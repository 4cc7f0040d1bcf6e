package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// errUnsupported marks a schema the fast path does not handle; such a
// schema validates with the reference validator only.
var errUnsupported = errors.New("not supported by the fast validator")

// programCompiler turns the tree's (pattern-rewritten) documents into
// nodes. It shares nodes between roots; callers hold Validator.mu.
type programCompiler struct {
	v     *Validator
	docs  map[string]any    // by document URL
	nodes map[string]*snode // by location
	fmts  map[string]func(any) bool
	res   map[string]*ecmaRegexp
}

func newProgramCompiler(v *Validator) *programCompiler {
	return &programCompiler{v: v, docs: map[string]any{}, nodes: map[string]*snode{}, fmts: formats(), res: map[string]*ecmaRegexp{}}
}

func (c *programCompiler) doc(u string) (any, error) {
	if d, ok := c.docs[u]; ok {
		return d, nil
	}
	d, _, err := c.v.schemaDoc(u)
	if err != nil {
		return nil, err
	}
	if m, ok := d.(map[string]any); ok {
		if s, ok := m["$schema"]; ok {
			switch s {
			case "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema",
				"https://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema":
			default:
				return nil, fmt.Errorf("%s: $schema %v: %w", u, s, errUnsupported)
			}
		}
	}
	c.docs[u] = d
	return d, nil
}

// compile returns the node at key ("url" or "url#/pointer").
func (c *programCompiler) compile(key string) (*snode, error) {
	u, frag, _ := strings.Cut(key, "#")
	n, err := c.at(u, frag)
	if err == nil {
		finishNodes(c.nodes)
	}
	return n, err
}

// at returns the node for the schema at ptr (an escaped JSON pointer, as
// written in a location) in document u.
func (c *programCompiler) at(u, ptr string) (*snode, error) {
	loc := u + "#" + ptr
	if n, ok := c.nodes[loc]; ok {
		return n, nil
	}
	d, err := c.doc(u)
	if err != nil {
		return nil, err
	}
	if ptr != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
			if x, err := url.PathUnescape(tok); err == nil {
				tok = x
			}
			tok = wire.UnescapePointerToken(tok)
			switch dd := d.(type) {
			case map[string]any:
				d = dd[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(dd) {
					return nil, fmt.Errorf("%s: no value at the pointer", loc)
				}
				d = dd[i]
			default:
				return nil, fmt.Errorf("%s: no value at the pointer", loc)
			}
		}
	}
	n := &snode{loc: loc, minLen: -1, maxLen: -1, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1}
	c.nodes[loc] = n
	if err := c.fill(n, d, u, ptr); err != nil {
		delete(c.nodes, loc)
		return nil, err
	}
	return n, nil
}

func (c *programCompiler) sub(u, ptr string, parts ...string) (*snode, error) {
	for _, p := range parts {
		ptr += "/" + p
	}
	return c.at(u, ptr)
}

// handled lists the keywords fill understands; an unknown draft-07
// assertion makes the schema unsupported rather than silently ignored.
var unsupportedKeywords = []string{"contentEncoding", "contentMediaType", "$recursiveRef", "$dynamicRef", "unevaluatedProperties", "unevaluatedItems", "dependentRequired", "dependentSchemas", "prefixItems"}

func (c *programCompiler) fill(n *snode, d any, u, ptr string) error {
	switch d := d.(type) {
	case bool:
		n.always = -1
		if d {
			n.always = 1
		}
		return nil
	case map[string]any:
		return c.fillMap(n, d, u, ptr)
	}
	return fmt.Errorf("%s: a schema must be an object or a boolean: %w", n.loc, errUnsupported)
}

func (c *programCompiler) fillMap(n *snode, m map[string]any, u, ptr string) error {
	if ref, ok := m["$ref"]; ok {
		rs, ok := ref.(string)
		if !ok {
			return fmt.Errorf("%s: $ref is not a string", n.loc)
		}
		target, err := c.resolve(u, rs)
		if err != nil {
			return fmt.Errorf("%s: %w", n.loc, err)
		}
		n.refLoc = target
		tu, tfrag, _ := strings.Cut(target, "#")
		n.ref, err = c.at(tu, tfrag)
		return err // draft-07: every other keyword beside $ref is ignored
	}
	for _, k := range unsupportedKeywords {
		if _, ok := m[k]; ok {
			return fmt.Errorf("%s: keyword %s: %w", n.loc, k, errUnsupported)
		}
	}
	var err error
	if err = c.fillValue(n, m); err != nil {
		return err
	}
	if err = c.fillObject(n, m, u, ptr); err != nil {
		return err
	}
	if err = c.fillArray(n, m, u, ptr); err != nil {
		return err
	}
	if err = c.fillNumber(n, m); err != nil {
		return err
	}
	return c.fillApplicators(n, m, u, ptr)
}

// resolve turns a $ref into the target's location key.
func (c *programCompiler) resolve(base, ref string) (string, error) {
	refPath, frag, _ := strings.Cut(ref, "#")
	target := base
	if refPath != "" {
		b, err := url.Parse(base)
		if err != nil {
			return "", err
		}
		r, err := b.Parse(refPath)
		if err != nil {
			return "", fmt.Errorf("$ref %q: %w", ref, err)
		}
		target = r.String()
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return "", fmt.Errorf("$ref %q: anchors: %w", ref, errUnsupported)
	}
	if _, err := c.v.pathForURL(target); err != nil {
		return "", err
	}
	return target + "#" + frag, nil
}

func loadInt(m map[string]any, k string) (int, error) {
	v, ok := m[k]
	if !ok {
		return -1, nil
	}
	num, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%s is not a number", k)
	}
	f, _ := num.Float64()
	return int(f), nil
}

func (c *programCompiler) fillValue(n *snode, m map[string]any) error {
	switch t := m["type"].(type) {
	case string:
		n.types, n.typeMsg = typeMaskOf([]string{t}), t
	case []any:
		names := make([]string, 0, len(t))
		for _, x := range t {
			s, ok := x.(string)
			if !ok {
				return fmt.Errorf("%s: type: %w", n.loc, errUnsupported)
			}
			names = append(names, s)
		}
		n.types, n.typeMsg = typeMaskOf(names), strings.Join(names, " or ")
	}
	if _, ok := m["type"]; ok && n.types == 0 {
		return fmt.Errorf("%s: type: %w", n.loc, errUnsupported)
	}
	if cv, ok := m["const"]; ok {
		n.hasConst = true
		n.constant = newConstVal(cv)
		switch cv.(type) {
		case map[string]any, []any:
			n.constMsg = "const failed"
		default:
			n.constMsg = fmt.Sprintf("value must be %#v", cv)
		}
	}
	if ev, ok := m["enum"]; ok {
		list, ok := ev.([]any)
		if !ok {
			return fmt.Errorf("%s: enum: %w", n.loc, errUnsupported)
		}
		allStrings, allPrimitives := true, true
		for _, x := range list {
			n.enum = append(n.enum, newConstVal(x))
			switch x.(type) {
			case string:
			case map[string]any, []any:
				allPrimitives, allStrings = false, false
			default:
				allStrings = false
			}
		}
		if allStrings && len(list) > 0 {
			n.enumStr = make(map[string]bool, len(list))
			for _, x := range list {
				n.enumStr[x.(string)] = true
			}
		}
		n.enumMsg = "enum failed"
		if allPrimitives {
			if len(list) == 1 {
				n.enumMsg = fmt.Sprintf("value must be %#v", list[0])
			} else {
				parts := make([]string, len(list))
				for i, x := range list {
					parts[i] = fmt.Sprintf("%#v", x)
				}
				n.enumMsg = fmt.Sprintf("value must be one of %s", strings.Join(parts, ", "))
			}
		}
		if len(list) == 0 {
			return fmt.Errorf("%s: empty enum: %w", n.loc, errUnsupported)
		}
	}
	if f, ok := m["format"].(string); ok {
		n.formatName = f
		if fn, ok := c.fmts[f]; ok {
			n.format = fn
		} else {
			n.format = jsonschema.Formats[f]
		}
	}
	var err error
	if n.minLen, err = loadInt(m, "minLength"); err != nil {
		return err
	}
	if n.maxLen, err = loadInt(m, "maxLength"); err != nil {
		return err
	}
	if p, ok := m[patternKeyword].(string); ok {
		re, ok := c.res[p]
		if !ok {
			if re, err = compileECMA(p); err != nil {
				return fmt.Errorf("%s: %w", n.loc, err)
			}
			c.res[p] = re
		}
		n.pattern = newPatternMatcher(re)
	}
	return nil
}

func typeMaskOf(names []string) typeMask {
	var t typeMask
	for _, s := range names {
		switch s {
		case "null":
			t |= mNull
		case "boolean":
			t |= mBool
		case "object":
			t |= mObject
		case "array":
			t |= mArray
		case "number":
			t |= mNumber
		case "string":
			t |= mString
		case "integer":
			t |= mInteger
		default:
			return 0
		}
	}
	return t
}

func newConstVal(x any) constVal {
	switch x := x.(type) {
	case nil:
		return constVal{kind: tNull, any: x}
	case bool:
		if x {
			return constVal{kind: tTrue, any: x}
		}
		return constVal{kind: tFalse, any: x}
	case string:
		return constVal{kind: tString, str: x, any: x}
	case json.Number:
		return constVal{kind: tNumber, num: parseDecimal([]byte(x), nil), any: x}
	case []any:
		return constVal{kind: tArray, any: x}
	default:
		return constVal{kind: tObject, any: x}
	}
}

func (n *snode) slotFor(name string) int32 {
	if i, ok := n.names[name]; ok {
		return i
	}
	if n.names == nil {
		n.names = map[string]int32{}
	}
	i := int32(len(n.slots))
	n.names[name] = i
	n.slots = append(n.slots, slot{name: name})
	return i
}

func (c *programCompiler) fillObject(n *snode, m map[string]any, u, ptr string) error {
	var err error
	if props, ok := m["properties"].(map[string]any); ok {
		for _, name := range sortedKeys(props) {
			s := n.slotFor(name)
			if n.slots[s].sub, err = c.sub(u, ptr, "properties", escapeLoc(name)); err != nil {
				return err
			}
		}
	}
	if req, ok := m["required"].([]any); ok {
		for _, x := range req {
			name, ok := x.(string)
			if !ok {
				return fmt.Errorf("%s: required: %w", n.loc, errUnsupported)
			}
			n.required = append(n.required, n.slotFor(name))
		}
	}
	if pp, ok := m["patternProperties"].(map[string]any); ok {
		if len(pp) > 64 {
			return fmt.Errorf("%s: patternProperties: %w", n.loc, errUnsupported)
		}
		for _, key := range sortedKeys(pp) {
			re, err := regexp.Compile(key)
			if err != nil {
				return fmt.Errorf("%s: patternProperties: %w", n.loc, err)
			}
			sub, err := c.sub(u, ptr, "patternProperties", escapeLoc(key))
			if err != nil {
				return err
			}
			n.patProps = append(n.patProps, patProp{re: re, sub: sub})
		}
	}
	switch a := m["additionalProperties"].(type) {
	case bool:
		n.addlFalse = !a
	case map[string]any:
		if n.addl, err = c.sub(u, ptr, "additionalProperties"); err != nil {
			return err
		}
	}
	if _, ok := m["propertyNames"]; ok {
		if n.propNames, err = c.sub(u, ptr, "propertyNames"); err != nil {
			return err
		}
	}
	if deps, ok := m["dependencies"].(map[string]any); ok {
		for _, name := range sortedKeys(deps) {
			dp := dep{slot: n.slotFor(name), name: name}
			switch dv := deps[name].(type) {
			case []any:
				for _, x := range dv {
					s, ok := x.(string)
					if !ok {
						return fmt.Errorf("%s: dependencies: %w", n.loc, errUnsupported)
					}
					dp.require = append(dp.require, n.slotFor(s))
					dp.names = append(dp.names, s)
				}
			default:
				if dp.sub, err = c.sub(u, ptr, "dependencies", escapeLoc(name)); err != nil {
					return err
				}
			}
			n.deps = append(n.deps, dp)
		}
	}
	if n.minProps, err = loadInt(m, "minProperties"); err != nil {
		return err
	}
	if n.maxProps, err = loadInt(m, "maxProperties"); err != nil {
		return err
	}
	n.propTokens = make([]string, len(n.slots))
	for i, s := range n.slots {
		n.propTokens[i] = escapeLoc(s.name)
	}
	n.objectWork = len(n.slots) > 0 || len(n.patProps) > 0 || n.addlFalse || n.addl != nil || n.propNames != nil || n.minProps >= 0 || n.maxProps >= 0
	return nil
}

func (c *programCompiler) fillArray(n *snode, m map[string]any, u, ptr string) error {
	var err error
	switch it := m["items"].(type) {
	case []any:
		for i := range it {
			s, err := c.sub(u, ptr, "items", strconv.Itoa(i))
			if err != nil {
				return err
			}
			n.tuple = append(n.tuple, s)
		}
		switch a := m["additionalItems"].(type) {
		case bool:
			n.addItemsFalse = !a
		case map[string]any:
			if n.addItems, err = c.sub(u, ptr, "additionalItems"); err != nil {
				return err
			}
		}
	case nil:
	default:
		if n.items, err = c.sub(u, ptr, "items"); err != nil {
			return err
		}
	}
	if _, ok := m["contains"]; ok {
		if n.contains, err = c.sub(u, ptr, "contains"); err != nil {
			return err
		}
	}
	if n.minItems, err = loadInt(m, "minItems"); err != nil {
		return err
	}
	if n.maxItems, err = loadInt(m, "maxItems"); err != nil {
		return err
	}
	if b, ok := m["uniqueItems"].(bool); ok {
		n.unique = b
	}
	n.arrayWork = n.items != nil || len(n.tuple) > 0 || n.contains != nil || n.minItems >= 0 || n.maxItems >= 0 || n.unique
	return nil
}

func (c *programCompiler) fillNumber(n *snode, m map[string]any) error {
	num := func(k string) (*bound, error) {
		v, ok := m[k]
		if !ok {
			return nil, nil
		}
		x, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Errorf("%s: %s is not a number: %w", n.loc, k, errUnsupported)
		}
		b, ok := newBound(x)
		if !ok {
			return nil, fmt.Errorf("%s: %s: %w", n.loc, k, errUnsupported)
		}
		return b, nil
	}
	var err error
	if n.minimum, err = num("minimum"); err != nil {
		return err
	}
	if n.maximum, err = num("maximum"); err != nil {
		return err
	}
	if b, ok := m["exclusiveMinimum"].(bool); ok {
		if b {
			n.minimum, n.exclusiveMin = nil, n.minimum
		}
	} else if n.exclusiveMin, err = num("exclusiveMinimum"); err != nil {
		return err
	}
	if b, ok := m["exclusiveMaximum"].(bool); ok {
		if b {
			n.maximum, n.exclusiveMax = nil, n.maximum
		}
	} else if n.exclusiveMax, err = num("exclusiveMaximum"); err != nil {
		return err
	}
	if v, ok := m["multipleOf"]; ok {
		x, ok := v.(json.Number)
		r, ok2 := new(big.Rat).SetString(string(x))
		if !ok || !ok2 || r.Sign() == 0 {
			return fmt.Errorf("%s: multipleOf: %w", n.loc, errUnsupported)
		}
		n.multipleOf = r
		n.multipleOfF, _ = r.Float64()
	}
	n.numberWork = n.minimum != nil || n.maximum != nil || n.exclusiveMin != nil || n.exclusiveMax != nil || n.multipleOf != nil
	return nil
}

func (c *programCompiler) fillApplicators(n *snode, m map[string]any, u, ptr string) error {
	var err error
	if _, ok := m["not"]; ok {
		if n.not, err = c.sub(u, ptr, "not"); err != nil {
			return err
		}
	}
	list := func(k string) ([]*snode, error) {
		v, ok := m[k]
		if !ok {
			return nil, nil
		}
		l, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%s: %s: %w", n.loc, k, errUnsupported)
		}
		out := make([]*snode, len(l))
		for i := range l {
			if out[i], err = c.sub(u, ptr, k, strconv.Itoa(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if n.allOf, err = list("allOf"); err != nil {
		return err
	}
	if n.anyOf, err = list("anyOf"); err != nil {
		return err
	}
	if n.oneOf, err = list("oneOf"); err != nil {
		return err
	}
	if m["if"] != nil {
		n.hasIf = true
		if n.ifS, err = c.sub(u, ptr, "if"); err != nil {
			return err
		}
		if _, ok := m["then"]; ok {
			if n.thenS, err = c.sub(u, ptr, "then"); err != nil {
				return err
			}
		}
		if _, ok := m["else"]; ok {
			if n.elseS, err = c.sub(u, ptr, "else"); err != nil {
				return err
			}
		}
	}
	n.applies = n.not != nil || len(n.allOf) > 0 || len(n.anyOf) > 0 || len(n.oneOf) > 0 || n.hasIf
	return nil
}

// escapeLoc escapes a token of a schema or instance location as the
// reference validator writes it.
func escapeLoc(token string) string {
	return url.PathEscape(wire.PointerToken(token)[1:])
}
