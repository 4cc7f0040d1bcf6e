package validate

import (
	"math/big"
	"regexp"
)

// A program is a schema compiled for the fast path: a graph of nodes, one
// per schema location, each holding what its keywords need precomputed
// (property slots, required lists, exact numeric bounds, compiled
// patterns). It follows the reference validator's draft-07 semantics: a
// node with $ref has nothing else; a failed type check stops the node.

type typeMask uint8

const (
	mNull typeMask = 1 << iota
	mBool
	mObject
	mArray
	mNumber
	mString
	mInteger
)

type snode struct {
	loc      string // absolute schema location, "url#/pointer" ("url#" for a root)
	finished bool   // see finishNodes
	always   int8   // 1: the true schema; -1: the false schema
	ref      *snode
	refLoc   string // the referenced location, for the wrapper message

	types   typeMask
	typeMsg string // "string or null"

	hasConst bool
	constant constVal
	constMsg string
	enum     []constVal
	enumStr  map[string]bool // when every enum value is a string
	enumMsg  string

	format     func(any) bool
	formatName string

	minLen, maxLen int
	pattern        *patternMatcher

	// objects
	objectWork         bool
	minProps, maxProps int
	names              map[string]int32
	slots              []slot
	sigs               []uint64 // slotSig of each slot's name
	required           []int32  // slots, in the schema's order
	patProps           []patProp
	addlFalse          bool
	addl               *snode
	propNames          *snode
	deps               []dep

	// arrays
	arrayWork          bool
	items              *snode
	tuple              []*snode
	addItemsFalse      bool
	addItems           *snode
	contains           *snode
	minItems, maxItems int
	unique             bool

	// numbers
	numberWork                 bool
	minimum, maximum           *bound
	exclusiveMin, exclusiveMax *bound
	multipleOf                 *big.Rat
	multipleOfF                float64

	not               *snode
	allOf, anyOf      []*snode
	oneOf             []*snode
	anyOfDisc         *discIndex
	oneOfDisc         *discIndex
	ifS, thenS, elseS *snode
	hasIf             bool
	applies           bool     // has not, allOf, anyOf, oneOf or if
	propTokens        []string // escaped property names, by slot
}

type slot struct {
	name  string
	sub   *snode // nil when only required or a dependency names it
	cheap bool   // sub checks a scalar only (a const discriminator, an enum)
}

type patProp struct {
	re  *regexp.Regexp
	sub *snode
}

type dep struct {
	slot    int32
	name    string
	require []int32 // property dependency: these slots must be present
	names   []string
	sub     *snode // schema dependency
}

// constVal is an enum member or const value. Scalars compare on the tape;
// objects and arrays through a decoded copy of the payload value.
type constVal struct {
	kind tokKind
	str  string
	num  decimal
	any  any // decoded value (json.Number for numbers)
}
