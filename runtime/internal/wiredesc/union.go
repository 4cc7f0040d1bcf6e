package wiredesc

// UnionStrategy is how the engine chooses a union arm.
type UnionStrategy uint8

const (
	ByKind     UnionStrategy = iota + 1 // by the value's JSON type
	ByConst                             // by const values of discriminator keys
	ByPresence                          // by which keys are present
	ByTrial                             // by trying each arm in order
)

// Union describes how a generated union tells its arms apart.
type Union struct {
	Name     string
	Strategy UnionStrategy
	// Exclusive (oneOf) rejects a payload matching several arms.
	Exclusive bool
	// Keys are the object keys probed (ByConst, ByPresence).
	Keys []string
	Arms []UnionArm
}

// UnionArm is one arm's selection rule. Key positions index Union.Keys.
type UnionArm struct {
	Name string
	// Desc describes the arm's value (what its pointer field points to);
	// arms are the union's Go fields, in order.
	Desc *Desc
	// Kinds (ByKind) lists accepted JSON kinds: 's'tring, 'n'umber,
	// 'i'nteger, 'b'oolean, 'o'bject, 'a'rray.
	Kinds string
	// Const (ByConst): per key, the accepted JSON literals (nil: any).
	Const [][]string
	// ByPresence rules.
	Required  []int
	Forbidden []int
	Fixed     []KeyLit // key must be present with this value
	Excluded  []KeyLit // key must not be present with this value
}

// KeyLit is a probed key and a JSON literal.
type KeyLit struct {
	Key int
	Lit string
}
