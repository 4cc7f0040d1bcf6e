package wire

import (
	"encoding/json"
	"regexp"

	"github.com/adcpgen/adcpgen/runtime/wireimpl"
)

// Types described to the engine the way generated code describes its own
// (see generator/internal/emit/desc.go): a Desc per type, a WireDesc
// method returning it, Late descriptors where a recursive type would make
// initialisation cyclic.

type eStatus string

var descEStatus = wireimpl.Desc{Shape: wireimpl.ShapeString, Name: "eStatus", Enum: []string{"active", "paused"}}

func (*eStatus) WireDesc() *wireimpl.Desc { return &descEStatus }

type eLevel int64

var descELevel = wireimpl.Desc{Shape: wireimpl.ShapeInt, Name: "eLevel", Enum: []string{"1", "2", "3.0"}}

func (*eLevel) WireDesc() *wireimpl.Desc { return &descELevel }

type ePoint struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

var descEPoint = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "ePoint", Go: (*ePoint)(nil), Members: []wireimpl.Member{
	{Name: "x", Desc: &wireimpl.DescFloat, Required: true},
	{Name: "y", Desc: &wireimpl.DescFloat, Required: true},
}, Extra: wireimpl.ExtraReject}

func (*ePoint) WireDesc() *wireimpl.Desc { return &descEPoint }

// eShape is a union picked by a const discriminator.
type eShape struct {
	Circle *eCircle
	Square *eSquare
}

var descEShape = wireimpl.Desc{Shape: wireimpl.ShapeUnion, Name: "eShape", Go: (*eShape)(nil), Union: &wireimpl.Union{
	Name: "eShape", Strategy: wireimpl.ByConst, Exclusive: true, Keys: []string{"kind"}, Arms: []wireimpl.UnionArm{
		{Name: "Circle", Desc: &descECircle, Const: [][]string{{`"circle"`}}},
		{Name: "Square", Desc: &descESquare, Const: [][]string{{`"square"`}}},
	}}}

func (*eShape) WireDesc() *wireimpl.Desc { return &descEShape }

type eCircle struct {
	R float64 `json:"r"`
}

var constCircle = wireimpl.Desc{Shape: wireimpl.ShapeString, Const: `"circle"`, Value: "circle"}
var descECircle = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "eCircle", Go: (*eCircle)(nil), Members: []wireimpl.Member{
	{Name: "kind", Desc: &constCircle, Required: true, Fixed: true},
	{Name: "r", Desc: &wireimpl.DescFloat, Required: true},
}, Extra: wireimpl.ExtraReject}

type eSquare struct {
	Side float64 `json:"side"`
}

var constSquare = wireimpl.Desc{Shape: wireimpl.ShapeString, Const: `"square"`, Value: "square"}
var descESquare = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "eSquare", Go: (*eSquare)(nil), Members: []wireimpl.Member{
	{Name: "kind", Desc: &constSquare, Required: true, Fixed: true},
	{Name: "side", Desc: &wireimpl.DescFloat, Required: true},
}, Extra: wireimpl.ExtraReject}

// eValue is a union picked by the JSON type.
type eValue struct {
	Text  *string
	Num   *float64
	List  []string
	Point *ePoint
}

var descEValue = wireimpl.Desc{Shape: wireimpl.ShapeUnion, Name: "eValue", Go: (*eValue)(nil), Union: &wireimpl.Union{
	Name: "eValue", Strategy: wireimpl.ByKind, Arms: []wireimpl.UnionArm{
		{Name: "Text", Desc: &wireimpl.DescString, Kinds: "s"},
		{Name: "Num", Desc: &wireimpl.DescFloat, Kinds: "n"},
		{Name: "List", Desc: &sliceOfString, Kinds: "a"},
		{Name: "Point", Desc: &descEPoint, Kinds: "o"},
	}}}

func (*eValue) WireDesc() *wireimpl.Desc { return &descEValue }

// eResult is a union picked by which keys are present.
type eResult struct {
	Success *eSuccess
	Failure *eFailure
}

var descEResult = wireimpl.Desc{Shape: wireimpl.ShapeUnion, Name: "eResult", Go: (*eResult)(nil), Union: &wireimpl.Union{
	Name: "eResult", Strategy: wireimpl.ByPresence, Exclusive: true, Keys: []string{"data", "errors"}, Arms: []wireimpl.UnionArm{
		{Name: "Success", Desc: &descESuccess, Required: []int{0}, Forbidden: []int{1}},
		{Name: "Failure", Desc: &descEFailure, Required: []int{1}, Forbidden: []int{0}},
	}}}

func (*eResult) WireDesc() *wireimpl.Desc { return &descEResult }

type eSuccess struct {
	Data json.RawMessage `json:"data"`
}

var descESuccess = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "eSuccess", Go: (*eSuccess)(nil), Members: []wireimpl.Member{
	{Name: "data", Desc: &wireimpl.DescRaw, Required: true},
}, Extra: wireimpl.ExtraReject}

type eFailure struct {
	Errors []string `json:"errors"`
}

var descEFailure = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "eFailure", Go: (*eFailure)(nil), Members: []wireimpl.Member{
	{Name: "errors", Desc: &sliceOfString, Required: true},
}, Extra: wireimpl.ExtraReject}

// eEither is a union tried arm by arm.
type eEither struct {
	Point *ePoint
	Raw   json.RawMessage
}

var descEEither = wireimpl.Desc{Shape: wireimpl.ShapeUnion, Name: "eEither", Go: (*eEither)(nil), Union: &wireimpl.Union{
	Name: "eEither", Strategy: wireimpl.ByTrial, Arms: []wireimpl.UnionArm{
		{Name: "Point", Desc: &descEPoint},
		{Name: "Raw", Desc: &wireimpl.DescRaw},
	}}}

func (*eEither) WireDesc() *wireimpl.Desc { return &descEEither }

// eNode is recursive: it reaches its own Desc through lateENode.
type eNode struct {
	Name     string  `json:"name"`
	Children []eNode `json:"children,omitempty"`
	Parent   *eNode  `json:"parent,omitempty"`
}

var lateENode = wireimpl.Desc{Shape: wireimpl.ShapeLate, Go: (*eNode)(nil)}
var sliceOfENode = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]eNode)(nil), Elem: &lateENode}
var descENode = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "eNode", Go: (*eNode)(nil), Members: []wireimpl.Member{
	{Name: "name", Desc: &wireimpl.DescString, Required: true},
	{Name: "children", Desc: &sliceOfENode},
	{Name: "parent", Desc: &lateENode},
}, Extra: wireimpl.ExtraReject}

func (*eNode) WireDesc() *wireimpl.Desc { return &descENode }

// eAll has a member of every shape.
type eAll struct {
	ID       string                       `json:"id"`
	Count    *int64                       `json:"count,omitempty"`
	Ratio    *float64                     `json:"ratio,omitempty"`
	On       *bool                        `json:"on,omitempty"`
	When     *DateTime                    `json:"when,omitempty"`
	Status   *eStatus                     `json:"status,omitempty"`
	Level    *eLevel                      `json:"level,omitempty"`
	Mode     *string                      `json:"mode,omitempty"`
	Tags     []string                     `json:"tags,omitempty"`
	Levels   []eLevel                     `json:"levels,omitempty"`
	Points   []ePoint                     `json:"points,omitempty"`
	Grid     [][]float64                  `json:"grid,omitempty"`
	Notes    map[string]json.RawMessage   `json:"notes,omitempty"`
	Scores   map[string]float64           `json:"scores,omitempty"`
	Places   map[string]ePoint            `json:"places,omitempty"`
	Nested   map[string]map[string]ePoint `json:"nested,omitempty"`
	Nick     Nullable[string]             `json:"nick,omitempty"`
	Where    Nullable[ePoint]             `json:"where,omitempty"`
	Maybe    []Nullable[int64]            `json:"maybe,omitempty"`
	Shape    eShape                       `json:"shape,omitempty"`
	Value    eValue                       `json:"value,omitempty"`
	Result   eResult                      `json:"result,omitempty"`
	Either   eEither                      `json:"either,omitempty"`
	Any      json.RawMessage              `json:"any,omitempty"`
	Home     ePoint                       `json:"home"`
	Tree     *eNode                       `json:"tree,omitempty"`
	Codes    []string                     `json:"codes,omitempty"`
	Matching map[string]int64             `json:"-"`
	Extra    map[string]json.RawMessage   `json:"-"`
}

var (
	constActive       = wireimpl.Desc{Shape: wireimpl.ShapeString, Const: `"active"`, Value: "active"}
	constManual       = wireimpl.Desc{Shape: wireimpl.ShapeString, Const: `"manual"`, Value: "manual"}
	constPlz          = wireimpl.Desc{Shape: wireimpl.ShapeString, Const: `"plz"`, Value: "plz"}
	sliceOfString     = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]string)(nil), Elem: &wireimpl.DescString}
	sliceOfELevel     = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]eLevel)(nil), Elem: &descELevel}
	sliceOfEPoint     = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]ePoint)(nil), Elem: &descEPoint}
	sliceOfFloat      = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]float64)(nil), Elem: &wireimpl.DescFloat}
	sliceOfSliceFloat = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[][]float64)(nil), Elem: &sliceOfFloat}
	sliceOfConstPlz   = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]string)(nil), Elem: &constPlz}
	mapOfRaw          = wireimpl.Desc{Shape: wireimpl.ShapeMap, Go: (*map[string]json.RawMessage)(nil), Elem: &wireimpl.DescRaw}
	mapOfFloat        = wireimpl.Desc{Shape: wireimpl.ShapeMap, Go: (*map[string]float64)(nil), Elem: &wireimpl.DescFloat}
	mapOfInt          = wireimpl.Desc{Shape: wireimpl.ShapeMap, Go: (*map[string]int64)(nil), Elem: &wireimpl.DescInt}
	mapOfEPoint       = wireimpl.Desc{Shape: wireimpl.ShapeMap, Go: (*map[string]ePoint)(nil), Elem: &descEPoint}
	mapOfMapOfEPoint  = wireimpl.Desc{Shape: wireimpl.ShapeMap, Go: (*map[string]map[string]ePoint)(nil), Elem: &mapOfEPoint}
	nullableOfString  = wireimpl.Desc{Shape: wireimpl.ShapeNullable, Go: (*Nullable[string])(nil), Elem: &wireimpl.DescString}
	nullableOfEPoint  = wireimpl.Desc{Shape: wireimpl.ShapeNullable, Go: (*Nullable[ePoint])(nil), Elem: &descEPoint}
	nullableOfInt     = wireimpl.Desc{Shape: wireimpl.ShapeNullable, Go: (*Nullable[int64])(nil), Elem: &wireimpl.DescInt}
	sliceOfNullInt    = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]Nullable[int64])(nil), Elem: &nullableOfInt}
	matchX            = regexp.MustCompile(`^x_`)
)

var descEAll = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "eAll", Go: (*eAll)(nil), Members: []wireimpl.Member{
	{Name: "id", Desc: &wireimpl.DescString, Required: true},
	{Name: "count", Desc: &wireimpl.DescInt},
	{Name: "ratio", Desc: &wireimpl.DescFloat},
	{Name: "on", Desc: &wireimpl.DescBool},
	{Name: "when", Desc: &wireimpl.DescString},
	{Name: "status", Desc: &descEStatus},
	{Name: "level", Desc: &descELevel},
	{Name: "kind", Desc: &constActive, Required: true, Fixed: true},
	{Name: "mode", Desc: &constManual},
	{Name: "tags", Desc: &sliceOfString},
	{Name: "levels", Desc: &sliceOfELevel},
	{Name: "points", Desc: &sliceOfEPoint},
	{Name: "grid", Desc: &sliceOfSliceFloat},
	{Name: "notes", Desc: &mapOfRaw},
	{Name: "scores", Desc: &mapOfFloat},
	{Name: "places", Desc: &mapOfEPoint},
	{Name: "nested", Desc: &mapOfMapOfEPoint},
	{Name: "nick", Desc: &nullableOfString},
	{Name: "where", Desc: &nullableOfEPoint},
	{Name: "maybe", Desc: &sliceOfNullInt},
	{Name: "shape", Desc: &descEShape},
	{Name: "value", Desc: &descEValue},
	{Name: "result", Desc: &descEResult},
	{Name: "either", Desc: &descEEither},
	{Name: "any", Desc: &wireimpl.DescRaw},
	{Name: "home", Desc: &descEPoint, Required: true},
	{Name: "tree", Desc: &descENode},
	{Name: "codes", Desc: &sliceOfConstPlz},
}, KeyPatterns: []wireimpl.KeyPattern{{Match: matchX.Match, Map: &mapOfInt}}}

func (*eAll) WireDesc() *wireimpl.Desc { return &descEAll }

// eTyped keeps undeclared members typed, and has keys that need escaping.
type eTyped struct {
	//lint:ignore SA5008 a JSON name with a quote in it, escaped on the wire, is what this type tests
	Quote *string           `json:"quo\"te,omitempty"`
	Rest  map[string]ePoint `json:"-"`
}

var descETyped = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "eTyped", Go: (*eTyped)(nil), Members: []wireimpl.Member{
	{Name: "quo\"te", Desc: &wireimpl.DescString},
	{Name: "tab\there", Desc: &constPlz, Required: true, Fixed: true},
}, Extra: wireimpl.ExtraTyped, ExtraMap: &mapOfEPoint}

func (*eTyped) WireDesc() *wireimpl.Desc { return &descETyped }

// eLink has a required member held by pointer (as a recursive type's).
type eLink struct {
	Next *eLink `json:"next"`
}

var lateELink = wireimpl.Desc{Shape: wireimpl.ShapeLate, Go: (*eLink)(nil)}
var descELink = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "eLink", Go: (*eLink)(nil), Members: []wireimpl.Member{
	{Name: "next", Desc: &lateELink, Required: true},
}, Extra: wireimpl.ExtraReject}

func (*eLink) WireDesc() *wireimpl.Desc { return &descELink }
