package wire

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/internal/wiredesc"
)

// ValueIs reports whether key i holds a value equal to the JSON literal.
func (p *probe) ValueIs(i int, lit string) bool {
	raw := p.Raw(i)
	return raw != nil && jsonEqual(raw, lit)
}

// pickArm looks at the value at the decoder's position, without consuming
// it, and returns the index of the arm that must decode it.
func (d *Decoder) pickArm(u *wiredesc.Union) (int, error) {
	switch u.Strategy {
	case wiredesc.ByKind:
		return d.pickByKind(u)
	case wiredesc.ByPresence:
		set, err := d.pickArms(u)
		if err != nil {
			return -1, err
		}
		if u.Exclusive && bits.OnesCount64(set) > 1 {
			return -1, d.severalArms(u, set)
		}
		return bits.TrailingZeros64(set), nil
	}
	var p probe
	p.Keys = u.Keys
	if err := d.probeObject(&p); err != nil {
		return -1, err
	}
	if p.Kind() != '{' {
		return -1, d.typeErr("object", p.Kind())
	}
	return d.pickByConst(u, &p)
}

func (d *Decoder) pickByKind(u *wiredesc.Union) (int, error) {
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
		m := d.save()
		_, integer, err := d.scanNumber()
		d.restore(m)
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

func (d *Decoder) pickByConst(u *wiredesc.Union, p *probe) (int, error) {
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

func constMatches(a wiredesc.UnionArm, p *probe) bool {
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

func describeValues(u *wiredesc.Union, p *probe) string {
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
func presenceReason(u *wiredesc.Union, a wiredesc.UnionArm, p *probe) string {
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

// noArm reports a trial-decoded union none of whose arms decoded the value.
func (d *Decoder) noArm(union string, arms []ArmError) error {
	e := d.errAt(KindUnion, union+": the value matches no arm")
	e.Arms = arms
	return e
}

// variantCount is the error for encoding a union with n arms set (n != 1).
func variantCount(union string, n int) error {
	if n == 0 {
		return &DecodeError{Kind: KindUnion, Message: union + ": no variant set"}
	}
	return &DecodeError{Kind: KindUnion, Message: union + ": " + strconv.Itoa(n) + " variants set, want exactly one"}
}
