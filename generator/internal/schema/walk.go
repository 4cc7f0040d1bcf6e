package schema

// Children returns the direct sub-schemas of s in document order.
func (s *Schema) Children() []*Schema {
	var out []*Schema
	for _, kw := range s.Keywords {
		switch kw.Name {
		case "properties":
			for _, p := range s.Properties {
				out = append(out, p.Schema)
			}
		case "patternProperties":
			for _, p := range s.PatternProperties {
				out = append(out, p.Schema)
			}
		case "definitions", "$defs":
			for _, d := range s.Definitions {
				if d.Keyword == kw.Name {
					out = append(out, d.Schema)
				}
			}
		case "dependencies", "dependentSchemas":
			for _, d := range s.Dependencies {
				if d.Schema != nil {
					out = append(out, d.Schema)
				}
			}
		case "items":
			if s.Items != nil {
				out = append(out, s.Items)
			}
			out = append(out, s.ItemsTuple...)
		case "allOf":
			out = append(out, s.AllOf...)
		case "anyOf":
			out = append(out, s.AnyOf...)
		case "oneOf":
			out = append(out, s.OneOf...)
		case "additionalProperties":
			out = appendNonNil(out, s.AdditionalProperties)
		case "propertyNames":
			out = appendNonNil(out, s.PropertyNames)
		case "additionalItems":
			out = appendNonNil(out, s.AdditionalItems)
		case "contains":
			out = appendNonNil(out, s.Contains)
		case "not":
			out = appendNonNil(out, s.Not)
		case "if":
			out = appendNonNil(out, s.If)
		case "then":
			out = appendNonNil(out, s.Then)
		case "else":
			out = appendNonNil(out, s.Else)
		}
	}
	return out
}

func appendNonNil(out []*Schema, s *Schema) []*Schema {
	if s != nil {
		out = append(out, s)
	}
	return out
}

// Walk calls fn on s and every schema below it, depth first, in document
// order, stopping at the first error.
func Walk(s *Schema, fn func(*Schema) error) error {
	if err := fn(s); err != nil {
		return err
	}
	for _, c := range s.Children() {
		if err := Walk(c, fn); err != nil {
			return err
		}
	}
	return nil
}

// Deref follows $ref chains from s to the first schema without a $ref. It
// returns s itself when it has no ref, and nil on a cycle.
func Deref(s *Schema) *Schema {
	seen := 0
	for s != nil && s.Ref != "" {
		if seen++; seen > 64 {
			return nil
		}
		s = s.Target
	}
	return s
}
