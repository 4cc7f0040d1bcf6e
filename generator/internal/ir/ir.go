// Package ir is the Go-level model the generator builds from schemas: named
// types with kinds, fields and union arms, and the type expressions that
// refer to them. Names are empty until the naming pass fills them.
package ir

import (
	"regexp"

	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

// Kind is what a named type is in Go.
type Kind uint8

const (
	KindStruct Kind = iota + 1 // struct with one field per property
	KindEnum                   // defined string/int type with constants
	KindScalar                 // defined type over a builtin (type Currency string)
	KindSlice                  // defined slice (type Tags []string)
	KindMap                    // defined map (type Ext map[string]json.RawMessage)
	KindUnion                  // tagged struct: one pointer field per arm
	KindRaw                    // defined json.RawMessage (untyped leaf or fallback)
)

// Builtin is a Go type the generated code uses without defining it.
type Builtin uint8

const (
	String   Builtin = iota + 1 // string
	Int                         // int64
	Float                       // float64
	Bool                        // bool
	Raw                         // json.RawMessage
	DateTime                    // wire.DateTime
	Date                        // wire.Date
)

// RefKind says how a Ref builds its Go type.
type RefKind uint8

const (
	RefBuiltin RefKind = iota + 1
	RefNamed
	RefSlice
	RefMap
	RefNullable // wire.Nullable[Elem]: absent, null or a value
)

// Ref is a Go type expression.
type Ref struct {
	Kind    RefKind
	Builtin Builtin
	Named   *Type
	Elem    *Ref // RefSlice, RefMap, RefNullable
	// Const is the scalar value a RefBuiltin is fixed to where no property
	// holds it (array items, map values, union arms); decoders check it.
	Const *schema.Value
}

// BuiltinRef returns a Ref to a builtin.
func BuiltinRef(b Builtin) *Ref { return &Ref{Kind: RefBuiltin, Builtin: b} }

// NamedRef returns a Ref to a named type.
func NamedRef(t *Type) *Ref { return &Ref{Kind: RefNamed, Named: t} }

// SliceOf returns []elem.
func SliceOf(elem *Ref) *Ref { return &Ref{Kind: RefSlice, Elem: elem} }

// MapOf returns map[string]elem.
func MapOf(elem *Ref) *Ref { return &Ref{Kind: RefMap, Elem: elem} }

// NullableOf returns wire.Nullable[elem] (elem itself when already nullable).
func NullableOf(elem *Ref) *Ref {
	if elem.Kind == RefNullable {
		return elem
	}
	return &Ref{Kind: RefNullable, Elem: elem}
}

// Type is a named Go type.
type Type struct {
	Kind Kind
	Name string // set by the naming pass

	// Hints are absolute name candidates, best first; Rank orders claims on
	// a name (lower wins) when candidates collide. Types made inline name
	// themselves after Parent instead: Parent's name + one of Suffixes.
	Hints    []string
	Rank     int
	Parent   *Type
	Suffixes []string
	// AltParent and AltSuffixes are fallback candidates after those.
	AltParent   *Type
	AltSuffixes []string

	Loc schema.Loc
	// Merged is set on a type made where a schema merges another file's
	// union into itself (allOf): each arm merged with the merging schema's
	// own members. It is the location of the merge; Loc is the arm's node,
	// which has a type of its own too. Key identifies a type by both.
	Merged   schema.Loc
	MergedID string // $id of Merged's document
	// Digest fingerprints the schema the type comes from (its node, and
	// the merge's) without its annotations: the same in every version and
	// location, whatever its description says. Generated files record it,
	// so a later generation knows a schema that moved or whose
	// documentation changed.
	Digest string
	// TextDigest fingerprints the whole text of the schema, annotations
	// included: what adcpgen recorded before Digest, matched only to know
	// the types of a package an earlier adcpgen generated.
	TextDigest  string
	SchemaID    string // $id of the document the type comes from
	Title       string
	Description string
	Deprecated  bool
	// Nullable records that the schema also allows null; fields using the
	// type wrap it in wire.Nullable.
	Nullable bool

	// KindStruct
	Fields []*Field
	// Patterns hold members whose keys match a patternProperties regexp,
	// tried in order before Extra.
	Patterns []*PatternField
	Extra    Extra // what happens to members the schema does not declare

	// KindEnum
	EnumBase Builtin // String or Int
	Values   []*EnumValue
	// KnownValues names the func listing Values (naming sets it:
	// Known<Name>Values, numbered when taken).
	KnownValues string

	// KindScalar, KindSlice, KindMap: the underlying type; KindSlice/KindMap
	// use Elem.Elem of a RefSlice/RefMap.
	Underlying *Ref

	// KindUnion
	Union *Union

	// KindRaw
	RawReason string
}

// Key identifies the schema a type stands for: its location, and for a
// merged copy where it was merged ("core/a.json#/anyOf/0 in
// core/b.json#/anyOf/0"). No two types of a package share one.
func (t *Type) Key() string {
	if t.Merged.File == "" {
		return t.Loc.String()
	}
	return t.Loc.String() + " in " + t.Merged.String()
}

// armStep matches a step into a union arm or an allOf member by index.
var armStep = regexp.MustCompile(`/(oneOf|anyOf|allOf)/[0-9]+(/|$| )`)

// InArm reports a type whose schema is, or lies in, a union arm or an allOf
// member: known by its index, its place moves when an arm is inserted
// before it, and another schema may stand there in another version.
func (t *Type) InArm() bool { return armStep.MatchString(t.Key()) }

// memberStep matches a step into an allOf member that the path goes on
// from.
var memberStep = regexp.MustCompile(`/allOf/[0-9]+/`)

// PlaceOf is the place a schema key names as the Go API sees it: the key
// without its steps into allOf members, whose properties are those of the
// one struct the members merge into ("a.json#/allOf/1/properties/p/items"
// is "a.json#/properties/p/items", at whatever index the member sits), or
// "" when the key is, or lies in, a union arm, or is an allOf member
// itself: places known by an index alone, where another schema may stand
// in another version.
func PlaceOf(key string) string {
	for {
		p := memberStep.ReplaceAllString(key, "/")
		if p == key {
			break
		}
		key = p
	}
	if armStep.MatchString(key) {
		return ""
	}
	return key
}

// Place is PlaceOf the type's key.
func (t *Type) Place() string { return PlaceOf(t.Key()) }

// NamedOf returns the named type r holds, directly or through Nullable.
func NamedOf(r *Ref) *Type {
	if r != nil && r.Kind == RefNullable {
		r = r.Elem
	}
	if r == nil || r.Kind != RefNamed {
		return nil
	}
	return r.Named
}

// PatternField is a map of the members whose keys match Pattern.
type PatternField struct {
	Pattern string // Go (RE2) syntax
	Type    *Ref   // the value type
	GoName  string // naming pass
}

// Extra is a struct's policy for undeclared members.
type Extra struct {
	Mode   ExtraMode
	Type   *Ref   // ExtraTyped: the map value type
	GoName string // the field that holds them (naming pass)
}

// ExtraMode is how undeclared members are treated.
type ExtraMode uint8

const (
	ExtraKeep   ExtraMode = iota + 1 // kept as raw JSON (additionalProperties absent or true)
	ExtraReject                      // rejected (additionalProperties: false)
	ExtraTyped                       // kept and typed (additionalProperties: <schema>)
)

// Field is one struct field.
type Field struct {
	JSONName string
	GoName   string
	Type     *Ref
	Required bool
	// Const is the value the schema fixes; present values must equal it.
	Const *schema.Value
	// Fixed marks a required const: checked and written, but no Go field.
	Fixed      bool
	Title      string
	Doc        string
	Deprecated bool
	Loc        schema.Loc
	// Indirect makes a required field a pointer, to break a recursive
	// value type.
	Indirect bool
	// Envelope marks a member of the protocol envelope in a tool's
	// payload, which the seller framework fills (registry.Envelope).
	Envelope bool
}

// EnumValue is one enum constant.
type EnumValue struct {
	Value      schema.Value
	GoName     string
	Deprecated bool
	Doc        string
}

// Strategy is how a union decoder picks its arm.
type Strategy uint8

const (
	ByKind     Strategy = iota + 1 // the JSON type of the value
	ByConst                        // const values of one or more properties
	ByPresence                     // which keys are present or absent
	ByTrial                        // try each arm in order
)

// Union describes a KindUnion type.
type Union struct {
	Strategy Strategy
	// Exclusive is oneOf: exactly one arm may match (presence, trial).
	Exclusive bool
	// DiscProps are the discriminator properties (ByConst), in the order they
	// are tested.
	DiscProps []string
	// ProbeKeys are every key the decoder looks at (ByConst, ByPresence).
	ProbeKeys []string
	Arms      []*Arm
	// KindType names the enum of arms Kind() returns (naming sets it).
	KindType string
}

// Arm is one union alternative.
type Arm struct {
	Label  string // name hint
	GoName string
	// Constructor names the func returning a union holding this arm
	// (naming sets it: New<Union><GoName>, numbered when taken).
	Constructor string
	// KindConst is the arm's constant of the union's KindType.
	KindConst string
	Type      *Ref
	Loc       schema.Loc
	Title     string
	Doc       string

	// ByKind: the JSON value kinds the arm accepts.
	Kinds []JSONKind
	// ByConst: per DiscProps entry, the values that select the arm.
	Disc [][]schema.Value
	// ByPresence.
	Required  []string
	Forbidden []string       // keys that must be absent
	Excluded  []ConstPresent // key/value pairs that must not both hold
	Fixed     []ConstPresent // key/value pairs that must hold
}

// ConstPresent is "key is present with this value".
type ConstPresent struct {
	Key   string
	Value schema.Value
}

// JSONKind is a JSON value type as a union decoder sees it.
type JSONKind uint8

const (
	JSONString  JSONKind = iota + 1
	JSONNumber           // any number
	JSONInteger          // a number without fraction
	JSONBool
	JSONObject
	JSONArray
	JSONNull
)

// Fallback is a place where the generator used json.RawMessage.
type Fallback struct {
	Loc    schema.Loc
	Reason string
	// Leaf is true when the schema itself leaves the value untyped (no type,
	// no $ref, no combinator); such fallbacks are expected.
	Leaf bool
}

// Package is everything one generation produces.
type Package struct {
	Types     []*Type
	Fallbacks []Fallback
	Registry  *Registry
}
