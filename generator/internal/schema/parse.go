package schema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Error is a problem at a place in a schema tree.
type Error struct {
	Loc Loc
	Msg string
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil && e.Msg == "" {
		return e.Loc.String() + ": " + e.Err.Error()
	}
	if e.Err != nil {
		return e.Loc.String() + ": " + e.Msg + ": " + e.Err.Error()
	}
	return e.Loc.String() + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error at loc.
func Errorf(loc Loc, format string, args ...any) *Error {
	return &Error{Loc: loc, Msg: fmt.Sprintf(format, args...)}
}

var validTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "boolean": true,
	"object": true, "array": true, "null": true,
}

// ParseDocument reads one schema file.
func ParseDocument(path string, data []byte) (*Document, error) {
	root, err := jsonsrc.Parse(data)
	if err != nil {
		var we *wire.DecodeError
		if errors.As(err, &we) {
			line, col := jsonsrc.LineCol(data, we.Offset)
			return nil, &Error{Loc: Loc{File: path, Pointer: we.Pointer},
				Msg: fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, we.Message)}
		}
		return nil, &Error{Loc: Loc{File: path}, Msg: "invalid JSON", Err: err}
	}
	doc := &Document{Path: path, Data: data, Source: root, byPtr: map[string]*Schema{}}
	p := parser{doc: doc}
	doc.Root = p.schema(root, Loc{File: path})
	if p.err != nil {
		return nil, p.err
	}
	doc.ID = doc.Root.ID
	return doc, nil
}

// parser keeps the first error and stops reporting after it.
type parser struct {
	doc *Document
	err error
}

func (p *parser) fail(loc Loc, format string, args ...any) {
	if p.err == nil {
		p.err = Errorf(loc, format, args...)
	}
}

func (p *parser) schema(n *jsonsrc.Node, loc Loc) *Schema {
	s := &Schema{Loc: loc, Doc: p.doc}
	p.doc.byPtr[loc.Pointer] = s
	switch n.Kind {
	case jsonsrc.Bool:
		b := n.Bool
		s.Bool = &b
		return s
	case jsonsrc.Object:
	default:
		p.fail(loc, "a schema must be an object or a boolean, got %s", n.Kind)
		return s
	}
	for _, m := range n.Members {
		kw := Keyword{Name: m.Key, Value: m.Value}
		s.Keywords = append(s.Keywords, kw)
		if strings.HasPrefix(m.Key, "x-") {
			s.Extensions = append(s.Extensions, kw)
		}
		p.keyword(s, m.Key, m.Value, loc.Child(m.Key))
	}
	return s
}

func (p *parser) keyword(s *Schema, key string, v *jsonsrc.Node, loc Loc) {
	switch key {
	case "$id":
		s.ID = p.str(v, loc)
	case "$ref":
		s.Ref = p.str(v, loc)
	case "$schema":
		s.SchemaURI = p.str(v, loc)
	case "$comment":
		s.Comment = p.str(v, loc)
	case "title":
		s.Title = p.str(v, loc)
	case "description":
		s.Description = p.str(v, loc)
	case "type":
		s.Types = p.types(v, loc)
	case "format":
		s.Format = p.str(v, loc)
	case "pattern":
		s.Pattern = p.str(v, loc)
	case "enum":
		if v.Kind != jsonsrc.Array {
			p.fail(loc, `"enum" must be an array, got %s`, v.Kind)
			return
		}
		for _, e := range v.Elems {
			s.Enum = append(s.Enum, Value{Node: e})
		}
	case "const":
		s.Const = &Value{Node: v}
	case "default":
		s.Default = &Value{Node: v}
	case "examples":
		if v.Kind == jsonsrc.Array {
			for _, e := range v.Elems {
				s.Examples = append(s.Examples, Value{Node: e})
			}
		}
	case "properties":
		for _, m := range p.members(v, loc) {
			s.Properties = append(s.Properties, &Property{Name: m.Key, Schema: p.schema(m.Value, loc.Child(m.Key))})
		}
	case "required":
		s.Required = p.strings(v, loc)
	case "additionalProperties":
		s.AdditionalProperties = p.schema(v, loc)
	case "patternProperties":
		for _, m := range p.members(v, loc) {
			s.PatternProperties = append(s.PatternProperties, &PatternProperty{Pattern: m.Key, Schema: p.schema(m.Value, loc.Child(m.Key))})
		}
	case "propertyNames":
		s.PropertyNames = p.schema(v, loc)
	case "minProperties":
		s.MinProperties = p.count(v, loc)
	case "maxProperties":
		s.MaxProperties = p.count(v, loc)
	case "dependencies":
		for _, m := range p.members(v, loc) {
			dep := &Dependency{Name: m.Key}
			if m.Value.Kind == jsonsrc.Array {
				dep.Required = p.strings(m.Value, loc.Child(m.Key))
			} else {
				dep.Schema = p.schema(m.Value, loc.Child(m.Key))
			}
			s.Dependencies = append(s.Dependencies, dep)
		}
	case "dependentSchemas":
		for _, m := range p.members(v, loc) {
			s.Dependencies = append(s.Dependencies, &Dependency{Name: m.Key, Schema: p.schema(m.Value, loc.Child(m.Key))})
		}
	case "dependentRequired":
		for _, m := range p.members(v, loc) {
			s.Dependencies = append(s.Dependencies, &Dependency{Name: m.Key, Required: p.strings(m.Value, loc.Child(m.Key))})
		}
	case "items":
		if v.Kind == jsonsrc.Array {
			for i, e := range v.Elems {
				s.ItemsTuple = append(s.ItemsTuple, p.schema(e, loc.Child(strconv.Itoa(i))))
			}
		} else {
			s.Items = p.schema(v, loc)
		}
	case "additionalItems":
		s.AdditionalItems = p.schema(v, loc)
	case "contains":
		s.Contains = p.schema(v, loc)
	case "minItems":
		s.MinItems = p.count(v, loc)
	case "maxItems":
		s.MaxItems = p.count(v, loc)
	case "uniqueItems":
		s.UniqueItems = p.boolean(v, loc)
	case "minLength":
		s.MinLength = p.count(v, loc)
	case "maxLength":
		s.MaxLength = p.count(v, loc)
	case "minimum":
		s.Minimum = p.number(v, loc)
	case "maximum":
		s.Maximum = p.number(v, loc)
	case "exclusiveMinimum":
		s.ExclusiveMinimum = p.number(v, loc)
	case "exclusiveMaximum":
		s.ExclusiveMaximum = p.number(v, loc)
	case "multipleOf":
		s.MultipleOf = p.number(v, loc)
	case "allOf":
		s.AllOf = p.schemaList(v, loc)
	case "anyOf":
		s.AnyOf = p.schemaList(v, loc)
	case "oneOf":
		s.OneOf = p.schemaList(v, loc)
	case "not":
		s.Not = p.schema(v, loc)
	case "if":
		s.If = p.schema(v, loc)
	case "then":
		s.Then = p.schema(v, loc)
	case "else":
		s.Else = p.schema(v, loc)
	case "definitions", "$defs":
		for _, m := range p.members(v, loc) {
			s.Definitions = append(s.Definitions, &Definition{Name: m.Key, Keyword: key, Schema: p.schema(m.Value, loc.Child(m.Key))})
		}
	case "discriminator":
		s.Discriminator = p.discriminator(v, loc)
	case "deprecated":
		s.Deprecated = p.boolean(v, loc)
	case "readOnly":
		s.ReadOnly = p.boolean(v, loc)
	case "writeOnly":
		s.WriteOnly = p.boolean(v, loc)
	}
}

func (p *parser) str(v *jsonsrc.Node, loc Loc) string {
	if v.Kind != jsonsrc.String {
		p.fail(loc, "want a string, got %s", v.Kind)
		return ""
	}
	return v.Str
}

func (p *parser) boolean(v *jsonsrc.Node, loc Loc) bool {
	if v.Kind != jsonsrc.Bool {
		p.fail(loc, "want a boolean, got %s", v.Kind)
		return false
	}
	return v.Bool
}

func (p *parser) strings(v *jsonsrc.Node, loc Loc) []string {
	if v.Kind != jsonsrc.Array {
		p.fail(loc, "want an array of strings, got %s", v.Kind)
		return nil
	}
	out := make([]string, 0, len(v.Elems))
	for i, e := range v.Elems {
		out = append(out, p.str(e, loc.Child(strconv.Itoa(i))))
	}
	return out
}

func (p *parser) types(v *jsonsrc.Node, loc Loc) []string {
	var names []string
	switch v.Kind {
	case jsonsrc.String:
		names = []string{v.Str}
	case jsonsrc.Array:
		names = p.strings(v, loc)
	default:
		p.fail(loc, `"type" must be a string or an array of strings, got %s`, v.Kind)
		return nil
	}
	for i, t := range names {
		if !validTypes[t] {
			at := loc
			if v.Kind == jsonsrc.Array {
				at = loc.Child(strconv.Itoa(i))
			}
			p.fail(at, "unknown type %q (want string, number, integer, boolean, object, array or null)", t)
		}
	}
	return names
}

func (p *parser) count(v *jsonsrc.Node, loc Loc) *int {
	if v.Kind != jsonsrc.Number {
		p.fail(loc, "want a non-negative integer, got %s", v.Kind)
		return nil
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil || f < 0 || f != float64(int(f)) {
		p.fail(loc, "want a non-negative integer, got %s", v.Str)
		return nil
	}
	n := int(f)
	return &n
}

func (p *parser) number(v *jsonsrc.Node, loc Loc) *Number {
	if v.Kind != jsonsrc.Number {
		p.fail(loc, "want a number, got %s", v.Kind)
		return nil
	}
	return &Number{Literal: v.Str}
}

func (p *parser) members(v *jsonsrc.Node, loc Loc) []jsonsrc.Member {
	if v.Kind != jsonsrc.Object {
		p.fail(loc, "want an object, got %s", v.Kind)
		return nil
	}
	return v.Members
}

func (p *parser) schemaList(v *jsonsrc.Node, loc Loc) []*Schema {
	if v.Kind != jsonsrc.Array {
		p.fail(loc, "want an array of schemas, got %s", v.Kind)
		return nil
	}
	out := make([]*Schema, 0, len(v.Elems))
	for i, e := range v.Elems {
		out = append(out, p.schema(e, loc.Child(strconv.Itoa(i))))
	}
	return out
}

func (p *parser) discriminator(v *jsonsrc.Node, loc Loc) *Discriminator {
	if v.Kind != jsonsrc.Object {
		p.fail(loc, "want an object, got %s", v.Kind)
		return nil
	}
	d := &Discriminator{}
	if pn := v.Get("propertyName"); pn != nil {
		d.PropertyName = p.str(pn, loc.Child("propertyName"))
	}
	if m := v.Get("mapping"); m != nil {
		for _, mm := range p.members(m, loc.Child("mapping")) {
			d.Mapping = append(d.Mapping, Keyword{Name: mm.Key, Value: mm.Value})
		}
	}
	return d
}
