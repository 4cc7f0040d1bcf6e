package wire

import (
	"math/bits"
	"strconv"
	"strings"
)

// UnionStrategy is how PickArm chooses a union arm.
type UnionStrategy uint8

const (
	ByKind     UnionStrategy = iota + 1 // by the value's JSON type
	ByConst                             // by const values of discriminator keys
	ByPresence                          // by which keys are present
	ByTrial                             // by trying each arm in order (the engine only)
)

// Union describes, for PickArm, how a generated union tells its arms apart.
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

// ValueIs reports whether key i holds a value equal to the JSON literal.
func (p *Probe) ValueIs(i int, lit string) bool {
	raw := p.Raw(i)
	return raw != nil && jsonEqual(raw, lit)
}

// PickArm looks at the value at the decoder's position, without consuming
// it, and returns the index of the arm that must decode it.
func (d *Decoder) PickArm(u *Union) (int, error) {
	switch u.Strategy {
	case ByKind:
		return d.pickByKind(u)
	case ByPresence:
		set, err := d.PickArms(u)
		if err != nil {
			return -1, err
		}
		if u.Exclusive && bits.OnesCount64(set) > 1 {
			return -1, d.severalArms(u, set)
		}
		return bits.TrailingZeros64(set), nil
	}
	var p Probe
	p.Keys = u.Keys
	if err := d.Probe(&p); err != nil {
		return -1, err
	}
	if p.Kind() != '{' {
		return -1, d.typeErr("object", p.Kind())
	}
	return d.pickByConst(u, &p)
}

func (d *Decoder) pickByKind(u *Union) (int, error) {
	c := d.skipWS()
	var kind byte
	switch {
	case c == '"':
		kind = 's'
	case c == 't' || c == 'f':
		kind = 'b'
	case c == '{':
		kind = 'o'
	case c == '[':
		kind = 'a'
	case isNumberStart(c):
		kind = 'n'
		m := d.Mark()
		_, integer, err := d.scanNumber()
		d.Reset(m)
		if err != nil {
			return -1, err
		}
		if integer {
			for i, a := range u.Arms {
				if strings.IndexByte(a.Kinds, 'i') >= 0 {
					return i, nil
				}
			}
		}
	}
	for i, a := range u.Arms {
		if kind != 0 && strings.IndexByte(a.Kinds, kind) >= 0 {
			return i, nil
		}
	}
	var want []string
	for _, a := range u.Arms {
		for _, k := range a.Kinds {
			want = append(want, kindWord(byte(k)))
		}
	}
	if kind == 0 && c != 'n' {
		return -1, d.syntaxErr("want a value, got " + describeByte(c))
	}
	return -1, d.errAt(KindType, "want "+strings.Join(want, " or ")+", got "+describeByte(c))
}

func kindWord(k byte) string {
	switch k {
	case 's':
		return "string"
	case 'n':
		return "number"
	case 'i':
		return "integer"
	case 'b':
		return "boolean"
	case 'o':
		return "object"
	}
	return "array"
}

func (d *Decoder) pickByConst(u *Union, p *Probe) (int, error) {
	for i, a := range u.Arms {
		if constMatches(a, p) {
			return i, nil
		}
	}
	// Say what the first discriminator holds and what it may hold.
	key := u.Keys[0]
	if !p.Has(0) {
		return -1, d.errAt(KindUnion, u.Name+": missing discriminator "+strconv.Quote(key))
	}
	var want []string
	for _, a := range u.Arms {
		if len(a.Const) > 0 {
			want = appendNew(want, a.Const[0]...)
		}
	}
	e := d.errAt(KindUnion, u.Name+": no arm for "+describeValues(u, p)+" (want "+key+" in "+strings.Join(want, ", ")+")")
	return -1, e
}

func constMatches(a UnionArm, p *Probe) bool {
	for k, lits := range a.Const {
		if lits == nil {
			continue
		}
		ok := false
		for _, lit := range lits {
			if p.ValueIs(k, lit) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func describeValues(u *Union, p *Probe) string {
	var parts []string
	for i, k := range u.Keys {
		if p.Has(i) {
			parts = append(parts, k+"="+abbreviate(p.Raw(i)))
		}
	}
	return strings.Join(parts, ", ")
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		dup := false
		for _, x := range list {
			dup = dup || x == it
		}
		if !dup {
			list = append(list, it)
		}
	}
	return list
}

// presenceReason says why an arm does not match, or "" when it does.
func presenceReason(u *Union, a UnionArm, p *Probe) string {
	var missing []string
	for _, k := range a.Required {
		if !p.Has(k) {
			missing = append(missing, strconv.Quote(u.Keys[k]))
		}
	}
	if len(missing) > 0 {
		return "missing " + strings.Join(missing, ", ")
	}
	for _, f := range a.Fixed {
		if !p.ValueIs(f.Key, f.Lit) {
			if !p.Has(f.Key) {
				return "missing " + strconv.Quote(u.Keys[f.Key])
			}
			return strconv.Quote(u.Keys[f.Key]) + " is not " + f.Lit
		}
	}
	for _, k := range a.Forbidden {
		if p.Has(k) {
			return "has " + strconv.Quote(u.Keys[k]) + ", which this arm forbids"
		}
	}
	for _, x := range a.Excluded {
		if p.ValueIs(x.Key, x.Lit) {
			return strconv.Quote(u.Keys[x.Key]) + " is " + x.Lit + ", which this arm forbids"
		}
	}
	return ""
}

// NoArm reports a trial-decoded union none of whose arms decoded the value.
func (d *Decoder) NoArm(union string, arms []ArmError) error {
	e := d.errAt(KindUnion, union+": the value matches no arm")
	e.Arms = arms
	return e
}

// ArmFailure describes one failed trial for NoArm.
func ArmFailure(arm string, err error) ArmError {
	return ArmError{Arm: arm, Reason: err.Error()}
}

// NoVariant is the error for encoding a union with no arm set.
func NoVariant(union string) error {
	return &DecodeError{Kind: KindUnion, Message: union + ": no variant set"}
}

// CountSet counts the true values (the arms a union has set).
func CountSet(set ...bool) int {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	return n
}

// VariantCount is the error for encoding a union with n arms set (n != 1).
func VariantCount(union string, n int) error {
	if n == 0 {
		return NoVariant(union)
	}
	return &DecodeError{Kind: KindUnion, Message: union + ": " + strconv.Itoa(n) + " variants set, want exactly one"}
}
