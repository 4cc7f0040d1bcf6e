package wire

import (
	"encoding/json"
	"regexp"
)

// Types described to the engine the way generated code describes its own
// (see generator/internal/emit/desc.go): a Desc per type, DecodeWire and
// EncodeWire handing it over, Late descriptors where a recursive type
// would make initialisation cyclic.

type eStatus string

var descEStatus = Desc{Shape: ShapeString, Name: "eStatus", Enum: []string{"active", "paused"}}

func (v *eStatus) DecodeWire(d *Decoder) error { return DecodeWith(d, v, &descEStatus) }
func (v *eStatus) EncodeWire(e *Encoder)       { EncodeWith(e, v, &descEStatus) }

type eLevel int64

var descELevel = Desc{Shape: ShapeInt, Name: "eLevel", Enum: []string{"1", "2", "3.0"}}

func (v *eLevel) DecodeWire(d *Decoder) error { return DecodeWith(d, v, &descELevel) }
func (v *eLevel) EncodeWire(e *Encoder)       { EncodeWith(e, v, &descELevel) }

type ePoint struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

var descEPoint = Desc{Shape: ShapeStruct, Name: "ePoint", Go: (*ePoint)(nil), Members: []Member{
	{Name: "x", Desc: &DescFloat, Required: true},
	{Name: "y", Desc: &DescFloat, Required: true},
}, Extra: ExtraReject}

func (v *ePoint) DecodeWire(d *Decoder) error { return DecodeWith(d, v, &descEPoint) }
func (v *ePoint) EncodeWire(e *Encoder)       { EncodeWith(e, v, &descEPoint) }

// eShape is a union picked by a const discriminator.
type eShape struct {
	Circle *eCircle
	Square *eSquare
}

var descEShape = Desc{Shape: ShapeUnion, Name: "eShape", Go: (*eShape)(nil), Union: &Union{
	Name: "eShape", Strategy: ByConst, Exclusive: true, Keys: []string{"kind"}, Arms: []UnionArm{
		{Name: "Circle", Desc: &descECircle, Const: [][]string{{`"circle"`}}},
		{Name: "Square", Desc: &descESquare, Const: [][]string{{`"square"`}}},
	}}}

func (u *eShape) DecodeWire(d *Decoder) error { return DecodeWith(d, u, &descEShape) }
func (u *eShape) EncodeWire(e *Encoder)       { EncodeWith(e, u, &descEShape) }

type eCircle struct {
	R float64 `json:"r"`
}

var constCircle = Desc{Shape: ShapeString, Const: `"circle"`, Value: "circle"}
var descECircle = Desc{Shape: ShapeStruct, Name: "eCircle", Go: (*eCircle)(nil), Members: []Member{
	{Name: "kind", Desc: &constCircle, Required: true, Fixed: true},
	{Name: "r", Desc: &DescFloat, Required: true},
}, Extra: ExtraReject}

type eSquare struct {
	Side float64 `json:"side"`
}

var constSquare = Desc{Shape: ShapeString, Const: `"square"`, Value: "square"}
var descESquare = Desc{Shape: ShapeStruct, Name: "eSquare", Go: (*eSquare)(nil), Members: []Member{
	{Name: "kind", Desc: &constSquare, Required: true, Fixed: true},
	{Name: "side", Desc: &DescFloat, Required: true},
}, Extra: ExtraReject}

// eValue is a union picked by the JSON type.
type eValue struct {
	Text  *string
	Num   *float64
	List  []string
	Point *ePoint
}

var descEValue = Desc{Shape: ShapeUnion, Name: "eValue", Go: (*eValue)(nil), Union: &Union{
	Name: "eValue", Strategy: ByKind, Arms: []UnionArm{
		{Name: "Text", Desc: &DescString, Kinds: "s"},
		{Name: "Num", Desc: &DescFloat, Kinds: "n"},
		{Name: "List", Desc: &sliceOfString, Kinds: "a"},
		{Name: "Point", Desc: &descEPoint, Kinds: "o"},
	}}}

func (u *eValue) DecodeWire(d *Decoder) error { return DecodeWith(d, u, &descEValue) }
func (u *eValue) EncodeWire(e *Encoder)       { EncodeWith(e, u, &descEValue) }

// eResult is a union picked by which keys are present.
type eResult struct {
	Success *eSuccess
	Failure *eFailure
}

var descEResult = Desc{Shape: ShapeUnion, Name: "eResult", Go: (*eResult)(nil), Union: &Union{
	Name: "eResult", Strategy: ByPresence, Exclusive: true, Keys: []string{"data", "errors"}, Arms: []UnionArm{
		{Name: "Success", Desc: &descESuccess, Required: []int{0}, Forbidden: []int{1}},
		{Name: "Failure", Desc: &descEFailure, Required: []int{1}, Forbidden: []int{0}},
	}}}

func (u *eResult) DecodeWire(d *Decoder) error { return DecodeWith(d, u, &descEResult) }
func (u *eResult) EncodeWire(e *Encoder)       { EncodeWith(e, u, &descEResult) }

type eSuccess struct {
	Data json.RawMessage `json:"data"`
}

var descESuccess = Desc{Shape: ShapeStruct, Name: "eSuccess", Go: (*eSuccess)(nil), Members: []Member{
	{Name: "data", Desc: &DescRaw, Required: true},
}, Extra: ExtraReject}

type eFailure struct {
	Errors []string `json:"errors"`
}

var descEFailure = Desc{Shape: ShapeStruct, Name: "eFailure", Go: (*eFailure)(nil), Members: []Member{
	{Name: "errors", Desc: &sliceOfString, Required: true},
}, Extra: ExtraReject}

// eEither is a union tried arm by arm.
type eEither struct {
	Point *ePoint
	Raw   json.RawMessage
}

var descEEither = Desc{Shape: ShapeUnion, Name: "eEither", Go: (*eEither)(nil), Union: &Union{
	Name: "eEither", Strategy: ByTrial, Arms: []UnionArm{
		{Name: "Point", Desc: &descEPoint},
		{Name: "Raw", Desc: &DescRaw},
	}}}

func (u *eEither) DecodeWire(d *Decoder) error { return DecodeWith(d, u, &descEEither) }
func (u *eEither) EncodeWire(e *Encoder)       { EncodeWith(e, u, &descEEither) }

// eNode is recursive: it reaches its own Desc through lateENode.
type eNode struct {
	Name     string  `json:"name"`
	Children []eNode `json:"children,omitempty"`
	Parent   *eNode  `json:"parent,omitempty"`
}

var lateENode = Desc{Shape: ShapeLate, Go: (*eNode)(nil)}
var sliceOfENode = Desc{Shape: ShapeSlice, Go: (*[]eNode)(nil), Elem: &lateENode}
var descENode = Desc{Shape: ShapeStruct, Name: "eNode", Go: (*eNode)(nil), Members: []Member{
	{Name: "name", Desc: &DescString, Required: true},
	{Name: "children", Desc: &sliceOfENode},
	{Name: "parent", Desc: &lateENode},
}, Extra: ExtraReject}

func (v *eNode) DecodeWire(d *Decoder) error { return DecodeWith(d, v, &descENode) }
func (v *eNode) EncodeWire(e *Encoder)       { EncodeWith(e, v, &descENode) }

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
	constActive       = Desc{Shape: ShapeString, Const: `"active"`, Value: "active"}
	constManual       = Desc{Shape: ShapeString, Const: `"manual"`, Value: "manual"}
	constPlz          = Desc{Shape: ShapeString, Const: `"plz"`, Value: "plz"}
	sliceOfString     = Desc{Shape: ShapeSlice, Go: (*[]string)(nil), Elem: &DescString}
	sliceOfELevel     = Desc{Shape: ShapeSlice, Go: (*[]eLevel)(nil), Elem: &descELevel}
	sliceOfEPoint     = Desc{Shape: ShapeSlice, Go: (*[]ePoint)(nil), Elem: &descEPoint}
	sliceOfFloat      = Desc{Shape: ShapeSlice, Go: (*[]float64)(nil), Elem: &DescFloat}
	sliceOfSliceFloat = Desc{Shape: ShapeSlice, Go: (*[][]float64)(nil), Elem: &sliceOfFloat}
	sliceOfConstPlz   = Desc{Shape: ShapeSlice, Go: (*[]string)(nil), Elem: &constPlz}
	mapOfRaw          = Desc{Shape: ShapeMap, Go: (*map[string]json.RawMessage)(nil), Elem: &DescRaw}
	mapOfFloat        = Desc{Shape: ShapeMap, Go: (*map[string]float64)(nil), Elem: &DescFloat}
	mapOfInt          = Desc{Shape: ShapeMap, Go: (*map[string]int64)(nil), Elem: &DescInt}
	mapOfEPoint       = Desc{Shape: ShapeMap, Go: (*map[string]ePoint)(nil), Elem: &descEPoint}
	mapOfMapOfEPoint  = Desc{Shape: ShapeMap, Go: (*map[string]map[string]ePoint)(nil), Elem: &mapOfEPoint}
	nullableOfString  = Desc{Shape: ShapeNullable, Go: (*Nullable[string])(nil), Elem: &DescString}
	nullableOfEPoint  = Desc{Shape: ShapeNullable, Go: (*Nullable[ePoint])(nil), Elem: &descEPoint}
	nullableOfInt     = Desc{Shape: ShapeNullable, Go: (*Nullable[int64])(nil), Elem: &DescInt}
	sliceOfNullInt    = Desc{Shape: ShapeSlice, Go: (*[]Nullable[int64])(nil), Elem: &nullableOfInt}
	matchX            = regexp.MustCompile(`^x_`)
)

var descEAll = Desc{Shape: ShapeStruct, Name: "eAll", Go: (*eAll)(nil), Members: []Member{
	{Name: "id", Desc: &DescString, Required: true},
	{Name: "count", Desc: &DescInt},
	{Name: "ratio", Desc: &DescFloat},
	{Name: "on", Desc: &DescBool},
	{Name: "when", Desc: &DescString},
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
	{Name: "any", Desc: &DescRaw},
	{Name: "home", Desc: &descEPoint, Required: true},
	{Name: "tree", Desc: &descENode},
	{Name: "codes", Desc: &sliceOfConstPlz},
}, KeyPatterns: []KeyPattern{{Match: matchX.Match, Map: &mapOfInt}}}

func (v *eAll) DecodeWire(d *Decoder) error { return DecodeWith(d, v, &descEAll) }
func (v *eAll) EncodeWire(e *Encoder)       { EncodeWith(e, v, &descEAll) }

// eTyped keeps undeclared members typed, and has keys that need escaping.
type eTyped struct {
	Quote *string           `json:"quo\"te,omitempty"`
	Rest  map[string]ePoint `json:"-"`
}

var descETyped = Desc{Shape: ShapeStruct, Name: "eTyped", Go: (*eTyped)(nil), Members: []Member{
	{Name: "quo\"te", Desc: &DescString},
	{Name: "tab\there", Desc: &constPlz, Required: true, Fixed: true},
}, Extra: ExtraTyped, ExtraMap: &mapOfEPoint}

func (v *eTyped) DecodeWire(d *Decoder) error { return DecodeWith(d, v, &descETyped) }
func (v *eTyped) EncodeWire(e *Encoder)       { EncodeWith(e, v, &descETyped) }

// eLink has a required member held by pointer (as a recursive type's).
type eLink struct {
	Next *eLink `json:"next"`
}

var lateELink = Desc{Shape: ShapeLate, Go: (*eLink)(nil)}
var descELink = Desc{Shape: ShapeStruct, Name: "eLink", Go: (*eLink)(nil), Members: []Member{
	{Name: "next", Desc: &lateELink, Required: true},
}, Extra: ExtraReject}

func (v *eLink) DecodeWire(d *Decoder) error { return DecodeWith(d, v, &descELink) }
func (v *eLink) EncodeWire(e *Encoder)       { EncodeWith(e, v, &descELink) }
