package lower

import (
	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

// typeSet is a set of JSON Schema type names.
type typeSet uint8

const (
	tString typeSet = 1 << iota
	tNumber
	tInteger
	tBoolean
	tObject
	tArray
	tNull
	tAll = tString | tNumber | tInteger | tBoolean | tObject | tArray | tNull
)

var typeBits = map[string]typeSet{
	"string": tString, "number": tNumber, "integer": tInteger, "boolean": tBoolean,
	"object": tObject, "array": tArray, "null": tNull,
}

func (t typeSet) has(b typeSet) bool { return t&b != 0 }

// count is the number of distinct JSON value kinds in t (integer counts as
// a number when both are present).
func (t typeSet) count() int {
	n := 0
	for b := tString; b <= tNull; b <<= 1 {
		if t&b != 0 && !(b == tInteger && t&tNumber != 0) {
			n++
		}
	}
	return n
}

// prop is a property merged from every schema that declares it.
type prop struct {
	name     string
	schemas  []*schema.Schema
	required bool
}

// shape is everything that decides the Go type of a schema node, merged
// over $ref targets and allOf members.
type shape struct {
	node  *schema.Schema
	typed bool // a "type" keyword was seen
	types typeSet

	props    []*prop
	byName   map[string]*prop
	required []string

	additional []*schema.Schema // every additionalProperties other than false
	addFalse   bool
	patterns   []*schema.PatternProperty

	items *schema.Schema
	tuple []*schema.Schema

	enum    []schema.Value
	hasEnum bool
	konst   *schema.Value
	format  string

	unions []*unionSrc // type-bearing oneOf/anyOf met while merging

	// Presence constraints from "not", for union arms.
	forbidden []string
	excluded  []ir.ConstPresent

	never bool // the schema false
}

// unionSrc is a type-bearing oneOf or anyOf.
type unionSrc struct {
	keyword string
	node    *schema.Schema
	arms    []*schema.Schema
}

func newShape(node *schema.Schema) *shape {
	return &shape{node: node, byName: map[string]*prop{}}
}

// collect merges s into sh. visiting guards against $ref cycles.
func (sh *shape) collect(s *schema.Schema, visiting map[*schema.Schema]bool) {
	if s == nil || visiting[s] {
		return
	}
	visiting[s] = true
	defer delete(visiting, s)
	if s.Bool != nil {
		if !*s.Bool {
			sh.never = true
		}
		return
	}
	if s.Ref != "" {
		sh.collect(s.Target, visiting)
	}
	if len(s.Types) > 0 {
		var ts typeSet
		for _, t := range s.Types {
			ts |= typeBits[t]
		}
		if sh.typed {
			sh.types = intersect(sh.types, ts)
		} else {
			sh.types, sh.typed = ts, true
		}
	}
	for _, p := range s.Properties {
		sh.addProp(p.Name, p.Schema)
	}
	for _, r := range s.Required {
		sh.require(r)
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.IsFalse() {
			sh.addFalse = true
		} else {
			sh.additional = append(sh.additional, ap)
		}
	}
	sh.patterns = append(sh.patterns, s.PatternProperties...)
	if s.Items != nil && sh.items == nil {
		sh.items = s.Items
	}
	if len(s.ItemsTuple) > 0 && sh.tuple == nil {
		sh.tuple = s.ItemsTuple
	}
	if len(s.Enum) > 0 {
		sh.mergeEnum(s.Enum)
	}
	if s.Const != nil && sh.konst == nil {
		sh.konst = s.Const
	}
	if s.Format != "" && sh.format == "" {
		sh.format = s.Format
	}
	if s.Not != nil {
		sh.collectNot(s.Not)
	}
	for _, m := range s.AllOf {
		sh.collect(m, visiting)
	}
	for _, kw := range []struct {
		name string
		arms []*schema.Schema
	}{{"oneOf", s.OneOf}, {"anyOf", s.AnyOf}} {
		if len(kw.arms) > 0 && typeBearing(kw.arms) && !sh.hasUnion(s, kw.name) {
			sh.unions = append(sh.unions, &unionSrc{keyword: kw.name, node: s, arms: kw.arms})
		}
	}
}

// mergeEnum narrows the shape's enum to the values enum also lists: every
// schema merged must hold (allOf), so a value one of them refuses is no
// value of the type (3.1's create_media_buy success status is both a
// TaskStatus and a MediaBuyStatus). Values keep the first enum's order; an
// empty intersection keeps the first enum, and the validator refuses
// every value.
func (sh *shape) mergeEnum(enum []schema.Value) {
	if !sh.hasEnum {
		sh.enum, sh.hasEnum = enum, true
		return
	}
	allowed := map[string]bool{}
	for _, v := range enum {
		allowed[v.JSON()] = true
	}
	var kept []schema.Value
	for _, v := range sh.enum {
		if allowed[v.JSON()] {
			kept = append(kept, v)
		}
	}
	if len(kept) > 0 {
		sh.enum = kept
	}
}

// intersect keeps the common types, where integer satisfies number.
func intersect(a, b typeSet) typeSet {
	out := a & b
	if a.has(tNumber) && b.has(tInteger) || b.has(tNumber) && a.has(tInteger) {
		out |= tInteger
	}
	return out
}

// hasUnion reports a union already met (the same schema reached twice
// through a merge).
func (sh *shape) hasUnion(node *schema.Schema, keyword string) bool {
	for _, u := range sh.unions {
		if u.node == node && u.keyword == keyword {
			return true
		}
	}
	return false
}

// constConflict reports a property fixed to two different values by the
// schemas merged into the shape: no value can satisfy them both.
func (sh *shape) constConflict() bool {
	for _, p := range sh.props {
		var first *schema.Value
		for _, s := range p.schemas {
			c := constOf(s)
			if c == nil {
				continue
			}
			if first == nil {
				first = c
			} else if c.JSON() != first.JSON() {
				return true
			}
		}
	}
	return false
}

func (sh *shape) addProp(name string, s *schema.Schema) {
	p := sh.byName[name]
	if p == nil {
		p = &prop{name: name}
		sh.byName[name] = p
		sh.props = append(sh.props, p)
	}
	p.schemas = append(p.schemas, s)
	if sh.isRequired(name) {
		p.required = true
	}
}

func (sh *shape) require(name string) {
	if sh.isRequired(name) {
		return
	}
	sh.required = append(sh.required, name)
	if p := sh.byName[name]; p != nil {
		p.required = true
	}
}

func (sh *shape) isRequired(name string) bool {
	for _, r := range sh.required {
		if r == name {
			return true
		}
	}
	return false
}

// collectNot reads presence constraints from a "not": required keys that
// must be absent, and key/const pairs that must not hold.
func (sh *shape) collectNot(n *schema.Schema) {
	n = schema.Deref(n)
	if n == nil {
		return
	}
	if len(n.Required) == 1 && len(n.Properties) == 0 {
		sh.forbidden = append(sh.forbidden, n.Required[0])
	}
	for _, a := range n.AnyOf {
		a = schema.Deref(a)
		if a == nil {
			continue
		}
		switch {
		case len(a.Required) == 1 && len(a.Properties) == 0:
			sh.forbidden = append(sh.forbidden, a.Required[0])
		case len(a.Required) == 1 && len(a.Properties) == 1 && a.Properties[0].Name == a.Required[0]:
			if c := constOf(a.Properties[0].Schema); c != nil {
				sh.excluded = append(sh.excluded, ir.ConstPresent{Key: a.Required[0], Value: *c})
			}
		}
	}
}

// constOf returns the single value a schema allows (const, or a one-value
// enum), or nil.
func constOf(s *schema.Schema) *schema.Value {
	s = schema.Deref(s)
	if s == nil {
		return nil
	}
	if s.Const != nil {
		return s.Const
	}
	if len(s.Enum) == 1 {
		return &s.Enum[0]
	}
	for _, m := range s.AllOf {
		if c := constOf(m); c != nil {
			return c
		}
	}
	return nil
}

// typeBearing reports whether some arm of a oneOf/anyOf says what type the
// value has (as opposed to arms that only add constraints: required lists,
// not, if/then).
func typeBearing(arms []*schema.Schema) bool {
	for _, a := range arms {
		if armTypeBearing(a, 0) {
			return true
		}
	}
	return false
}

func armTypeBearing(a *schema.Schema, depth int) bool {
	if a == nil || depth > 16 {
		return false
	}
	if a.Bool != nil {
		return false
	}
	if a.Ref != "" || len(a.Types) > 0 || a.Items != nil || len(a.ItemsTuple) > 0 || len(a.Enum) > 0 || a.Const != nil {
		return true
	}
	if a.AdditionalProperties != nil && !a.AdditionalProperties.IsFalse() || len(a.PatternProperties) > 0 {
		return true
	}
	for _, p := range a.Properties {
		if declaresType(p.Schema) {
			return true
		}
	}
	for _, m := range a.AllOf {
		if armTypeBearing(m, depth+1) {
			return true
		}
	}
	return typeBearing(a.OneOf) || typeBearing(a.AnyOf)
}

// declaresType reports a property schema that says something about type,
// not only constraints (a const counts: it fixes the value).
func declaresType(s *schema.Schema) bool {
	if s == nil || s.Bool != nil {
		return false
	}
	return s.Ref != "" || len(s.Types) > 0 || len(s.Properties) > 0 || s.Items != nil || len(s.Enum) > 0 ||
		s.Const != nil || len(s.OneOf) > 0 || len(s.AnyOf) > 0 || len(s.AllOf) > 0
}

// isAnnotation reports keywords that do not change what a schema accepts.
func isAnnotation(name string) bool {
	switch name {
	case "title", "description", "$comment", "examples", "default", "deprecated",
		"readOnly", "writeOnly", "$schema", "$id", "enumDescriptions", "errorMessage":
		return true
	}
	return len(name) > 2 && name[:2] == "x-"
}

// pureRef returns the target when s is only a $ref plus annotations (or an
// allOf holding one such ref), so s is another name for the target's type.
func pureRef(s *schema.Schema) *schema.Schema {
	if s == nil || s.Bool != nil {
		return nil
	}
	var via *schema.Schema
	for _, kw := range s.Keywords {
		switch {
		case kw.Name == "$ref":
			via = s.Target
		case kw.Name == "allOf" && len(s.AllOf) == 1:
			via = pureRef(s.AllOf[0])
			if via == nil && s.AllOf[0].Ref == "" {
				return nil
			}
		case isAnnotation(kw.Name):
		default:
			return nil
		}
	}
	if s.Ref != "" && len(s.AllOf) > 0 {
		return nil
	}
	return via
}
