package wire

import (
	"math/bits"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/internal/wiredesc"
)

// pickArms returns, as a bit set, every arm whose presence rules the value
// at the decoder's position meets (ByPresence unions), without consuming it. When none does, the error says why each arm failed.
func (d *Decoder) pickArms(u *wiredesc.Union) (uint64, error) {
	var p probe
	p.Keys = u.Keys
	if err := d.probeObject(&p); err != nil {
		return 0, err
	}
	if p.Kind() != '{' {
		return 0, d.typeErr("object", p.Kind())
	}
	var set uint64
	for i, a := range u.Arms {
		if presenceReason(u, a, &p) == "" {
			set |= 1 << i
		}
	}
	if set == 0 {
		e := d.errAt(KindUnion, u.Name+": the payload matches no arm")
		for _, a := range u.Arms {
			e.Arms = append(e.Arms, ArmError{Arm: a.Name, Reason: presenceReason(u, a, &p)})
		}
		return 0, e
	}
	return set, nil
}

// decodeCandidates reads the value with the candidate arms. One candidate is
// read directly. Several (key presence cannot always tell arms apart, for
// example when one arm forbids extra members) are tried in order with a
// strict decode: a non-exclusive union (anyOf) keeps the first that
// decodes; an exclusive one (oneOf) needs exactly one. decode must reset the
// union before reading arm.
func (d *Decoder) decodeCandidates(u *wiredesc.Union, arms uint64, decode func(arm int) error) error {
	if bits.OnesCount64(arms) == 1 {
		return decode(bits.TrailingZeros64(arms))
	}
	m := d.save()
	var ok []int
	var fails []ArmError
	for set := arms; set != 0; set &= set - 1 {
		i := bits.TrailingZeros64(set)
		err := decode(i)
		if err == nil {
			if !u.Exclusive {
				return nil
			}
			ok = append(ok, i)
		} else {
			if we, isWire := err.(*DecodeError); isWire && !armSpecific(we.Kind) {
				return err // malformed input fails every arm the same way
			}
			fails = append(fails, ArmError{Arm: u.Arms[i].Name, Reason: err.Error()})
		}
		d.restore(m)
	}
	switch len(ok) {
	case 1:
		return decode(ok[0])
	case 0:
		e := d.errAt(KindUnion, u.Name+": the value decodes as none of the arms its keys allow")
		e.Arms = fails
		return e
	}
	var set uint64
	for _, a := range ok {
		set |= 1 << a
	}
	return d.severalArms(u, set)
}

// severalArms rejects a payload that matches more than one arm of a oneOf.
func (d *Decoder) severalArms(u *wiredesc.Union, set uint64) error {
	var names []string
	for ; set != 0; set &= set - 1 {
		names = append(names, u.Arms[bits.TrailingZeros64(set)].Name)
	}
	return d.errAt(KindUnion, u.Name+": the payload matches several arms ("+strings.Join(names, ", ")+"); exactly one must match")
}

// armSpecific reports failures that depend on the arm tried, as opposed to
// input that is malformed whatever the arm.
func armSpecific(k Kind) bool {
	switch k {
	case KindSyntax, KindUTF8, KindDepth, KindForbiddenKey, KindDuplicate:
		return false
	}
	return true
}
