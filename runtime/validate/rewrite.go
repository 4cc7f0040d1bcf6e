package validate

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/wire"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The jsonschema library compiles `pattern` with Go's RE2, which has neither
// ECMA-262's meaning for \s, '.', \uXXXX nor lookarounds. Before a schema
// reaches it, every `pattern` is moved to patternKeyword, which the
// extension below compiles with compileECMA; patternProperties keys are
// translated to equivalent RE2 (kept as written when RE2 reads them alike).

const patternKeyword = "x-adcpgen-ecma-pattern"

// Keywords whose value is a schema, a list of schemas, or a map of schemas
// (draft-07, plus $defs which the corpus uses beside definitions).
var (
	schemaValued = []string{"additionalItems", "additionalProperties", "contains", "if", "then", "else", "not", "propertyNames"}
	schemaLists  = []string{"allOf", "anyOf", "oneOf"}
	schemaMaps   = []string{"properties", "definitions", "$defs", "dependencies"}
)

// rewriteSchema rewrites patterns in the schema at ptr and below.
func rewriteSchema(doc any, ptr string) error {
	return walkSchema(doc, ptr, func(m map[string]any, ptr string) error {
		if p, ok := m["pattern"].(string); ok {
			if _, err := compileECMA(p); err != nil {
				return fmt.Errorf("%s/pattern: %w", ptr, err)
			}
			delete(m, "pattern")
			m[patternKeyword] = p
		}
		if pp, ok := m["patternProperties"].(map[string]any); ok {
			out := make(map[string]any, len(pp))
			for key, sub := range pp {
				k, err := re2Key(key)
				if err != nil {
					return fmt.Errorf("%s/patternProperties: %w", ptr, err)
				}
				out[k] = sub
			}
			m["patternProperties"] = out
		}
		return nil
	})
}

// walkSchema calls fn on the schema object at ptr, then on every schema
// below it: every schema position of draft-07 (plus $defs), never examples,
// enum, const or default.
func walkSchema(doc any, ptr string, fn func(m map[string]any, ptr string) error) error {
	m, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	if err := fn(m, ptr); err != nil {
		return err
	}
	for _, kw := range schemaValued {
		if err := walkSchema(m[kw], ptr+"/"+kw, fn); err != nil {
			return err
		}
	}
	for _, kw := range schemaLists {
		if list, ok := m[kw].([]any); ok {
			for i, sub := range list {
				if err := walkSchema(sub, ptr+"/"+kw+"/"+strconv.Itoa(i), fn); err != nil {
					return err
				}
			}
		}
	}
	switch items := m["items"].(type) {
	case map[string]any:
		if err := walkSchema(items, ptr+"/items", fn); err != nil {
			return err
		}
	case []any:
		for i, sub := range items {
			if err := walkSchema(sub, ptr+"/items/"+strconv.Itoa(i), fn); err != nil {
				return err
			}
		}
	}
	for _, kw := range append(schemaMaps, "patternProperties") {
		if mm, ok := m[kw].(map[string]any); ok {
			for _, name := range sortedKeys(mm) {
				if err := walkSchema(mm[name], ptr+"/"+kw+wire.PointerToken(name), fn); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ecmaPatternExt compiles patternKeyword.
type ecmaPatternExt struct{}

func (ecmaPatternExt) Compile(_ jsonschema.CompilerContext, m map[string]any) (jsonschema.ExtSchema, error) {
	p, ok := m[patternKeyword].(string)
	if !ok {
		return nil, nil
	}
	re, err := compileECMA(p)
	if err != nil {
		return nil, err
	}
	return ecmaPatternSchema{re}, nil
}

type ecmaPatternSchema struct{ re *ecmaRegexp }

func (s ecmaPatternSchema) Validate(ctx jsonschema.ValidationContext, v any) error {
	str, ok := v.(string)
	if !ok {
		return nil
	}
	matched, err := s.re.MatchString(str)
	if err != nil {
		// Rejecting is the safe answer for a value too costly to check.
		return ctx.Error("pattern", "could not check pattern \"%s\": %v", s.re.source, err)
	}
	if !matched {
		// As Ajv words it: the pattern as published, unescaped.
		return ctx.Error("pattern", "must match pattern \"%s\"", s.re.source)
	}
	return nil
}
