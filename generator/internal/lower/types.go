package lower

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

// typeRef returns the Go type for a schema met in a field, element or map
// value position. Types made for it are named after parent + suffixes.
func (b *builder) typeRef(s *schema.Schema, parent *ir.Type, suffixes []string) *ir.Ref {
	if target := aliasTarget(s); target != nil {
		if isNamedNode(target) {
			t := b.namedType(target)
			return wrapNullable(ir.NamedRef(t), t.Nullable)
		}
		s = target
	}
	ref, nullable := b.lowerShape(collectShape(s), nil, parent, suffixes)
	return wrapNullable(ref, nullable)
}

func wrapNullable(r *ir.Ref, nullable bool) *ir.Ref {
	if nullable {
		return ir.NullableOf(r)
	}
	return r
}

// aliasTarget follows pure renames ($ref plus annotations) to the node that
// defines the type, or returns nil when s defines it itself.
func aliasTarget(s *schema.Schema) *schema.Schema {
	var out *schema.Schema
	for i := 0; i < 64; i++ {
		t := pureRef(s)
		if t == nil {
			return out
		}
		out, s = t, t
	}
	return out
}

// isNamedNode reports nodes that deserve a name of their own when referenced:
// document roots and definitions. Other referenced nodes (a property of
// another file) are typed in place.
func isNamedNode(s *schema.Schema) bool {
	return s.Loc.Pointer == "" || isDefinition(s.Loc.Pointer)
}

// lowerShape maps a shape to a Go type and reports whether the location
// also admits null. When self is set the shape fills that named type
// (struct, enum, union) or leaves its Kind zero for a plain Go type;
// otherwise named types it needs are made inline after parent.
func (b *builder) lowerShape(sh *shape, self *ir.Type, parent *ir.Type, suffixes []string) (*ir.Ref, bool) {
	ref, nullable := b.lowerShapeOnce(sh, self, parent, suffixes)
	if self == nil && nullable && ref.Kind == ir.RefNamed && b.named[sh.node] == ref.Named {
		// A type made inline for this node answers every later lowering of
		// the node (another allOf merging it, a $ref to it): it must carry
		// the node's nullability, or those copies would refuse null.
		ref.Named.Nullable = true
	}
	return ref, nullable
}

func (b *builder) lowerShapeOnce(sh *shape, self *ir.Type, parent *ir.Type, suffixes []string) (*ir.Ref, bool) {
	if b.depth++; b.depth > maxLowerDepth {
		b.depth--
		return b.fallback(sh.node.Loc, false, "schema nests more than %d levels", maxLowerDepth), false
	}
	defer func() { b.depth-- }()
	if self == nil {
		if t, ok := b.named[sh.node]; ok {
			return ir.NamedRef(t), t.Nullable
		}
	}
	loc := sh.node.Loc
	if sh.never {
		return b.fallback(loc, false, "the schema is false: no value is valid"), false
	}
	if len(sh.unions) > 1 {
		return b.fallback(loc, false, "%d type-bearing oneOf/anyOf combined in one schema", len(sh.unions)), false
	}
	if len(sh.unions) == 1 {
		return b.lowerUnion(sh, self, parent, suffixes)
	}
	types := sh.inferTypes()
	nullable := types.has(tNull)
	types &^= tNull
	switch {
	case sh.hasEnum:
		return b.lowerEnum(sh, self, parent, suffixes)
	case sh.konst != nil:
		ref, null := constRef(*sh.konst)
		if ref == nil {
			return b.fallback(loc, false, "const %s has no scalar Go type", sh.konst.JSON()), false
		}
		if !null {
			// Checked wherever it stands, as a property's const is.
			ref.Const = sh.konst
		}
		return ref, nullable || null
	}
	switch types.count() {
	case 0:
		if nullable {
			return b.fallback(loc, true, "the only value allowed is null"), false
		}
		return b.fallback(loc, true, "the schema does not say what type the value has"), false
	case 1:
	default:
		return b.lowerKindUnion(sh, types, self, parent, suffixes, nullable)
	}
	switch {
	case types.has(tObject):
		return b.lowerObject(sh, self, parent, suffixes), nullable
	case types.has(tArray):
		return b.lowerArray(sh, self, parent, suffixes), nullable
	case types.has(tString):
		return stringRef(sh.format), nullable
	case types.has(tNumber):
		return ir.BuiltinRef(ir.Float), nullable
	case types.has(tInteger):
		return ir.BuiltinRef(ir.Int), nullable
	default:
		return ir.BuiltinRef(ir.Bool), nullable
	}
}

// maxLowerDepth bounds nested lowering, so no schema can exhaust the stack.
const maxLowerDepth = 256

// inferTypes returns the JSON types the shape allows, inferring them from
// other keywords when "type" is absent.
func (sh *shape) inferTypes() typeSet {
	if sh.typed {
		return sh.types
	}
	var t typeSet
	if len(sh.props) > 0 || len(sh.additional) > 0 || len(sh.patterns) > 0 || sh.addFalse {
		t |= tObject
	}
	if sh.items != nil || sh.tuple != nil {
		t |= tArray
	}
	values := sh.enum
	if sh.konst != nil {
		values = append(values[:len(values):len(values)], *sh.konst)
	}
	for _, v := range values {
		t |= kindOfValue(v)
	}
	return t
}

func kindOfValue(v schema.Value) typeSet {
	switch v.Node.Kind {
	case jsonsrc.String:
		return tString
	case jsonsrc.Number:
		if isIntegerLiteral(v.Node.Str) {
			return tInteger
		}
		return tNumber
	case jsonsrc.Bool:
		return tBoolean
	case jsonsrc.Null:
		return tNull
	case jsonsrc.Array:
		return tArray
	}
	return tObject
}

func isIntegerLiteral(lit string) bool {
	for _, c := range lit {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

func stringRef(format string) *ir.Ref {
	switch format {
	case "date-time":
		return ir.BuiltinRef(ir.DateTime)
	case "date":
		return ir.BuiltinRef(ir.Date)
	}
	return ir.BuiltinRef(ir.String)
}

// constRef is the Go type holding a const value.
func constRef(v schema.Value) (*ir.Ref, bool) {
	switch v.Node.Kind {
	case jsonsrc.String:
		return ir.BuiltinRef(ir.String), false
	case jsonsrc.Bool:
		return ir.BuiltinRef(ir.Bool), false
	case jsonsrc.Number:
		if isIntegerLiteral(v.Node.Str) {
			return ir.BuiltinRef(ir.Int), false
		}
		return ir.BuiltinRef(ir.Float), false
	case jsonsrc.Null:
		return ir.BuiltinRef(ir.Raw), true
	}
	return nil, false
}

// need returns the named type to fill: self, or a new type named after parent.
func (b *builder) need(self *ir.Type, sh *shape, parent *ir.Type, suffixes []string, kind ir.Kind) *ir.Type {
	if self == nil {
		self = b.newType(sh.node)
		self.Rank = rankInline
		self.Parent, self.Suffixes = parent, suffixes
		if h := ownName(titleName(sh.node.Title)); h != "" {
			self.Hints = []string{h}
		}
		b.named[sh.node] = self
	}
	self.Kind = kind
	return self
}

func (b *builder) lowerEnum(sh *shape, self, parent *ir.Type, suffixes []string) (*ir.Ref, bool) {
	var base ir.Builtin
	nullable := false
	var values []schema.Value
	for _, v := range sh.enum {
		var vb ir.Builtin
		switch v.Node.Kind {
		case jsonsrc.Null:
			nullable = true
			continue
		case jsonsrc.String:
			vb = ir.String
		case jsonsrc.Number:
			if !isIntegerLiteral(v.Node.Str) {
				return b.fallback(sh.node.Loc, false, "enum with non-integer number %s", v.Node.Str), false
			}
			vb = ir.Int
		default:
			return b.fallback(sh.node.Loc, false, "enum with %s values", v.Node.Kind), false
		}
		if base != 0 && base != vb {
			return b.fallback(sh.node.Loc, false, "enum mixes strings and numbers"), false
		}
		base = vb
		values = append(values, v)
	}
	if base == 0 {
		return b.fallback(sh.node.Loc, true, "the only value allowed is null"), false
	}
	if sh.inferTypes().has(tNull) {
		nullable = true
	}
	t := b.need(self, sh, parent, suffixes, ir.KindEnum)
	t.EnumBase = base
	deprecated := enumDeprecations(sh)
	docs := enumDocs(sh)
	for _, v := range values {
		key := v.Node.Str
		t.Values = append(t.Values, &ir.EnumValue{Value: v, Deprecated: deprecated[key], Doc: docs[key]})
	}
	return ir.NamedRef(t), nullable
}

// enumDeprecations reads x-deprecated-enum-values from the enum's node.
func enumDeprecations(sh *shape) map[string]bool {
	out := map[string]bool{}
	for _, s := range []*schema.Schema{sh.node, schema.Deref(sh.node)} {
		if s == nil {
			continue
		}
		if n := s.Extension("x-deprecated-enum-values"); n != nil {
			for _, e := range n.Elems {
				out[e.Str] = true
			}
		}
	}
	return out
}

// enumDocs reads enumDescriptions / x-enum-descriptions (value -> text).
func enumDocs(sh *shape) map[string]string {
	out := map[string]string{}
	for _, s := range []*schema.Schema{sh.node, schema.Deref(sh.node)} {
		if s == nil {
			continue
		}
		for _, kw := range s.Keywords {
			if kw.Name != "enumDescriptions" && kw.Name != "x-enum-descriptions" {
				continue
			}
			for _, m := range kw.Value.Members {
				if m.Value.Kind == jsonsrc.String {
					out[m.Key] = m.Value.Str
				}
			}
		}
	}
	return out
}

func (b *builder) lowerArray(sh *shape, self, parent *ir.Type, suffixes []string) *ir.Ref {
	if sh.tuple != nil {
		return b.fallback(sh.node.Loc, false, "tuple arrays (items as a list) are not supported")
	}
	owner, base := namingOwner(self, parent, suffixes)
	if sh.items == nil {
		b.fallback(sh.node.Loc.Child("items"), true, "array items have no schema")
		return ir.SliceOf(ir.BuiltinRef(ir.Raw))
	}
	return ir.SliceOf(b.typeRef(sh.items, owner, itemSuffixes(base)))
}

// namingOwner returns the parent and suffixes for types made below a value:
// the value's own named type when it has one, else its parent's.
func namingOwner(self, parent *ir.Type, suffixes []string) (*ir.Type, []string) {
	if self != nil {
		return self, nil
	}
	return parent, suffixes
}

// extend appends a word to every suffix candidate (or starts one).
func extend(suffixes []string, word string) []string {
	if len(suffixes) == 0 {
		return []string{word}
	}
	out := make([]string, len(suffixes))
	for i, s := range suffixes {
		out[i] = s + word
	}
	return out
}

func (b *builder) lowerObject(sh *shape, self, parent *ir.Type, suffixes []string) *ir.Ref {
	switch {
	case len(sh.props) == 0 && len(sh.patterns) == 0 && !sh.addFalse:
		return b.lowerMap(sh, self, parent, suffixes)
	case len(sh.props) == 0 && sh.addFalse && samePatternSchemas(sh.patterns):
		// Every key must match a pattern, and all patterns share one
		// schema: a plain typed map.
		return b.lowerMap(sh, self, parent, suffixes)
	}
	t := b.need(self, sh, parent, suffixes, ir.KindStruct)
	for i, p := range sh.patterns {
		re, err := regexp.Compile(p.Pattern)
		if err != nil {
			b.fallback(p.Schema.Loc, false, "patternProperties %q is not RE2 syntax; its members stay raw JSON", p.Pattern)
			continue
		}
		name := "Matching"
		if len(sh.patterns) > 1 {
			name += strconv.Itoa(i + 1)
		}
		t.Patterns = append(t.Patterns, &ir.PatternField{Pattern: re.String(), Type: b.typeRef(p.Schema, t, []string{name})})
	}
	for _, p := range sh.props {
		chosen, deprecated, doc, title := chooseSchema(p.schemas)
		if chosen == nil {
			continue // every schema given is false: the property is forbidden
		}
		required := p.required || sh.isRequired(p.name)
		f := &ir.Field{JSONName: p.name, Required: required, Deprecated: deprecated, Doc: doc, Title: title, Loc: chosen.Loc}
		switch c := constOf(chosen); {
		case c != nil && c.Node.Kind != jsonsrc.Null && scalar(*c):
			f.Const, f.Fixed = c, required
			f.Type, _ = constRef(*c)
		case len(typedSchemas(p.schemas)) > 1:
			// allOf gave the property several schemas: all of them apply.
			f.Type = b.mergedRef(typedSchemas(p.schemas), t, goName(p.name))
			// (Several $refs to one schema are that schema: see typedSchemas.)
		default:
			f.Type = b.typeRef(chosen, t, []string{goName(p.name)})
		}
		t.Fields = append(t.Fields, f)
	}
	switch {
	case sh.addFalse:
		t.Extra.Mode = ir.ExtraReject
	case typedAdditional(sh) != nil:
		t.Extra.Mode = ir.ExtraTyped
		t.Extra.Type = b.typeRef(typedAdditional(sh), t, []string{"Value"})
	default:
		t.Extra.Mode = ir.ExtraKeep
	}
	return ir.NamedRef(t)
}

// samePatternSchemas reports patterns that all share one schema.
func samePatternSchemas(patterns []*schema.PatternProperty) bool {
	if len(patterns) == 0 {
		return false
	}
	for _, p := range patterns[1:] {
		if aliasTarget(p.Schema) == nil || aliasTarget(p.Schema) != aliasTarget(patterns[0].Schema) {
			return false
		}
	}
	return true
}

// typedSchemas lists the schemas that say something about type.
// Several $refs to one schema count once: merging a schema with itself
// is that schema.
func typedSchemas(schemas []*schema.Schema) []*schema.Schema {
	var out []*schema.Schema
	seen := map[*schema.Schema]bool{}
	for _, s := range schemas {
		def := s
		if t := aliasTarget(s); t != nil {
			def = t
		}
		if declaresType(s) && !seen[def] {
			seen[def] = true
			out = append(out, s)
		}
	}
	return out
}

// mergedRef types a property whose schemas all apply (allOf members that
// each declare it) as one merged shape, keyed by the schemas themselves so
// a $ref to any one of them alone keeps its own type.
func (b *builder) mergedRef(schemas []*schema.Schema, parent *ir.Type, suffix string) *ir.Ref {
	var key strings.Builder
	for _, s := range schemas {
		key.WriteString(s.Loc.String())
		key.WriteByte('|')
	}
	if t, ok := b.merged[key.String()]; ok {
		return wrapNullable(ir.NamedRef(t), t.Nullable)
	}
	last := schemas[len(schemas)-1]
	sh := newShape(last)
	for _, s := range schemas {
		sh.collect(s, map[*schema.Schema]bool{})
	}
	t := detachedType(last, parent, suffix, true)
	b.merged[key.String()] = t
	ref, kept := b.adopt(t, sh)
	if !kept {
		delete(b.merged, key.String())
		return ref
	}
	b.copies[t], b.mergedFrom[t] = parent, schemas
	return wrapNullable(ref, t.Nullable)
}

// typedAdditional returns an additionalProperties schema that types the
// extra members (not true, not empty), or nil.
func typedAdditional(sh *shape) *schema.Schema {
	for _, a := range sh.additional {
		if !a.IsTrue() {
			return a
		}
	}
	return nil
}

// lowerMap types an object without declared properties: a map of typed
// values, or of raw JSON when the schema leaves members open.
func (b *builder) lowerMap(sh *shape, self, parent *ir.Type, suffixes []string) *ir.Ref {
	owner, base := namingOwner(self, parent, suffixes)
	if a := typedAdditional(sh); a != nil {
		return ir.MapOf(b.typeRef(a, owner, extend(base, "Value")))
	}
	if len(sh.patterns) > 0 {
		return ir.MapOf(b.typeRef(sh.patterns[0].Schema, owner, extend(base, "Value")))
	}
	return ir.MapOf(ir.BuiltinRef(ir.Raw))
}

// chooseSchema picks, among the schemas merged for one property, the one
// that decides its type: a const (a discriminator) first, else the last
// that declares a type (the most specific), else the first.
func chooseSchema(schemas []*schema.Schema) (chosen *schema.Schema, deprecated bool, doc, title string) {
	var typed, first *schema.Schema
	for _, s := range schemas {
		if s.IsFalse() {
			continue
		}
		if first == nil {
			first = s
		}
		if constOf(s) != nil && (s.Const != nil || len(schema.Deref(s).Enum) == 1) && chosen == nil {
			chosen = s
		}
		if declaresType(s) {
			typed = s
		}
		t := schema.Deref(s)
		if s.Deprecated || (t != nil && t.Deprecated && s.Ref == "") {
			deprecated = true
		}
		if doc == "" {
			doc = s.Description
			if doc == "" && t != nil && s.Ref != "" && !isNamedNode(t) {
				doc = t.Description
			}
		}
		if title == "" {
			title = s.Title
		}
	}
	if chosen == nil {
		chosen = typed
	}
	if chosen == nil {
		chosen = first
	}
	return chosen, deprecated, doc, title
}

// isDefinition reports pointers of the form .../definitions/<name> or
// .../$defs/<name>.
func isDefinition(ptr string) bool {
	_, kw, ok := lastTwo(ptr)
	return ok && (kw == "definitions" || kw == "$defs")
}

func lastTwo(ptr string) (last, before string, ok bool) {
	i := lastSlash(ptr)
	if i < 0 {
		return "", "", false
	}
	j := lastSlash(ptr[:i])
	if j < 0 {
		return "", "", false
	}
	return ptr[i+1:], ptr[j+1 : i], true
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}
