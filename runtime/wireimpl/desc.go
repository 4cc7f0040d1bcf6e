package wireimpl

import "github.com/adcpgen/adcpgen/runtime/internal/wiredesc"

// The descriptor types (see runtime/internal/wiredesc).
type (
	// Desc describes a generated type, or a slice, map, nullable or const
	// it uses, to runtime/wire's engine.
	Desc = wiredesc.Desc
	// Shape is how the engine reads and writes a described type.
	Shape = wiredesc.Shape
	// Member is one declared member of a struct.
	Member = wiredesc.Member
	// KeyPattern keeps the members whose keys match in a map field.
	KeyPattern = wiredesc.KeyPattern
	// ExtraMode says what happens to members a struct does not declare.
	ExtraMode = wiredesc.ExtraMode
	// Union describes how a generated union tells its arms apart.
	Union = wiredesc.Union
	// UnionArm is one arm's selection rule.
	UnionArm = wiredesc.UnionArm
	// UnionStrategy is how the engine chooses a union arm.
	UnionStrategy = wiredesc.UnionStrategy
	// KeyLit is a probed key and a JSON literal.
	KeyLit = wiredesc.KeyLit
)

// The shapes.
const (
	ShapeString   = wiredesc.ShapeString
	ShapeInt      = wiredesc.ShapeInt
	ShapeFloat    = wiredesc.ShapeFloat
	ShapeBool     = wiredesc.ShapeBool
	ShapeRaw      = wiredesc.ShapeRaw
	ShapeStruct   = wiredesc.ShapeStruct
	ShapeUnion    = wiredesc.ShapeUnion
	ShapeSlice    = wiredesc.ShapeSlice
	ShapeMap      = wiredesc.ShapeMap
	ShapeNullable = wiredesc.ShapeNullable
	ShapeLate     = wiredesc.ShapeLate
)

// What happens to undeclared members.
const (
	ExtraKeep   = wiredesc.ExtraKeep
	ExtraReject = wiredesc.ExtraReject
	ExtraTyped  = wiredesc.ExtraTyped
)

// How a union's arm is chosen.
const (
	ByKind     = wiredesc.ByKind
	ByConst    = wiredesc.ByConst
	ByPresence = wiredesc.ByPresence
	ByTrial    = wiredesc.ByTrial
)

// The descriptors of the builtin scalars.
var (
	DescString = Desc{Shape: ShapeString}
	DescInt    = Desc{Shape: ShapeInt}
	DescFloat  = Desc{Shape: ShapeFloat}
	DescBool   = Desc{Shape: ShapeBool}
	DescRaw    = Desc{Shape: ShapeRaw}
)

// EnumValues lists the values of the string enum t describes, in schema
// order (a generated Known<T>Values).
func EnumValues[T ~string](t *Desc) []T { return wiredesc.EnumValues[T](t) }

// EnumInts lists the values of the integer enum t describes.
func EnumInts[T ~int64](t *Desc) []T { return wiredesc.EnumInts[T](t) }
