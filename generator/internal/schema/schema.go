// Package schema is adcpgen's own model of a JSON Schema (draft-07, with the
// draft 2019 spellings the AdCP trees also use). It keeps every keyword in
// document order, the x-* extensions, and the file#/pointer of every node.
package schema

import (
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Loc is where a schema node sits: a tree-relative file and a JSON pointer.
type Loc struct {
	File    string
	Pointer string
}

func (l Loc) String() string { return l.File + "#" + l.Pointer }

// Child returns the location of a sub-node.
func (l Loc) Child(tokens ...string) Loc {
	p := l.Pointer
	for _, t := range tokens {
		p += wire.PointerToken(t)
	}
	return Loc{File: l.File, Pointer: p}
}

// Document is one schema file.
type Document struct {
	Path   string // tree-relative, slash-separated
	ID     string // its $id, or "" when it has none
	Data   []byte
	Root   *Schema
	byPtr  map[string]*Schema
	Source *jsonsrc.Node
}

// At returns the schema at a JSON pointer inside the document.
func (d *Document) At(pointer string) *Schema { return d.byPtr[pointer] }

// Schema is one schema node.
type Schema struct {
	Loc Loc
	Doc *Document

	// Bool is set for the boolean schemas true and false.
	Bool *bool

	ID          string
	Ref         string
	Target      *Schema // what Ref resolves to, set by the loader
	SchemaURI   string  // $schema
	Title       string
	Description string
	Comment     string

	Types []string // "type", as a list

	Format  string
	Pattern string

	Enum     []Value
	Const    *Value
	Default  *Value
	Examples []Value

	Properties           []*Property
	Required             []string
	AdditionalProperties *Schema
	PatternProperties    []*PatternProperty
	PropertyNames        *Schema
	MinProperties        *int
	MaxProperties        *int
	Dependencies         []*Dependency

	Items           *Schema
	ItemsTuple      []*Schema
	AdditionalItems *Schema
	Contains        *Schema
	MinItems        *int
	MaxItems        *int
	UniqueItems     bool

	MinLength *int
	MaxLength *int

	Minimum          *Number
	Maximum          *Number
	ExclusiveMinimum *Number
	ExclusiveMaximum *Number
	MultipleOf       *Number

	AllOf []*Schema
	AnyOf []*Schema
	OneOf []*Schema
	Not   *Schema
	If    *Schema
	Then  *Schema
	Else  *Schema

	Definitions   []*Definition // definitions and $defs, in document order
	Discriminator *Discriminator

	Deprecated bool
	ReadOnly   bool
	WriteOnly  bool

	// Keywords is every keyword in document order, with its raw value.
	Keywords []Keyword
	// Extensions are the x-* keywords, in document order.
	Extensions []Keyword
}

// Property is one entry of "properties".
type Property struct {
	Name   string
	Schema *Schema
}

// PatternProperty is one entry of "patternProperties".
type PatternProperty struct {
	Pattern string
	Schema  *Schema
}

// Definition is one entry of "definitions" or "$defs".
type Definition struct {
	Name    string
	Keyword string // "definitions" or "$defs"
	Schema  *Schema
}

// Dependency is one entry of "dependencies": a list of required names, or a
// schema.
type Dependency struct {
	Name     string
	Required []string
	Schema   *Schema
}

// Discriminator is OpenAPI's discriminator keyword.
type Discriminator struct {
	PropertyName string
	Mapping      []Keyword // value -> $ref, in document order
}

// Keyword is a keyword with its raw JSON value.
type Keyword struct {
	Name  string
	Value *jsonsrc.Node
}

// Value is a JSON value used by enum, const, default and examples.
type Value struct {
	Node *jsonsrc.Node
}

// JSON is the value as compact JSON.
func (v Value) JSON() string { return v.Node.Compact() }

// IsString reports a string value.
func (v Value) IsString() bool { return v.Node.Kind == jsonsrc.String }

// Number is a numeric keyword kept as its literal.
type Number struct {
	Literal string
}

// Extension returns the x-* keyword named name, or nil.
func (s *Schema) Extension(name string) *jsonsrc.Node {
	for _, k := range s.Extensions {
		if k.Name == name {
			return k.Value
		}
	}
	return nil
}

// Property returns the property named name, or nil.
func (s *Schema) Property(name string) *Property {
	for _, p := range s.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// IsRequired reports whether name is in "required".
func (s *Schema) IsRequired(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// HasType reports whether "type" lists t.
func (s *Schema) HasType(t string) bool {
	for _, x := range s.Types {
		if x == t {
			return true
		}
	}
	return false
}

// IsFalse reports the boolean schema false.
func (s *Schema) IsFalse() bool { return s != nil && s.Bool != nil && !*s.Bool }

// IsTrue reports the boolean schema true, or an empty schema.
func (s *Schema) IsTrue() bool {
	return s != nil && ((s.Bool != nil && *s.Bool) || (s.Bool == nil && len(s.Keywords) == 0))
}
