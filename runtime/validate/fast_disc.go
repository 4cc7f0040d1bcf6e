package validate

import "strings"

// A oneOf or anyOf whose arms are objects told apart by a const member
// (pricing_model, selection_type) is indexed by that member: on an object
// payload, the fast mode skips the arms whose const differs from the
// payload's value, since their properties keyword fails for certain.

type discIndex struct {
	name string
	vals []string // per arm: the const the arm requires of the member
	has  []bool   // per arm: whether it has one (else the arm always runs)
}

// deref follows $refs.
func deref(n *snode) *snode {
	for hops := 0; n != nil && n.ref != nil; hops++ {
		if hops > 16 {
			return nil
		}
		n = n.ref
	}
	return n
}

// armConst returns the string const an arm requires of property name.
func armConst(arm *snode, name string) (string, bool) {
	a := deref(arm)
	if a == nil {
		return "", false
	}
	s, ok := a.names[name]
	if !ok || a.slots[s].sub == nil {
		return "", false
	}
	sub := deref(a.slots[s].sub)
	if sub == nil || !sub.hasConst || sub.constant.kind != tString {
		return "", false
	}
	return sub.constant.str, true
}

// newDiscIndex indexes arms by the first const member of the first arm
// that at least two arms share; nil when there is none.
func newDiscIndex(arms []*snode) *discIndex {
	if len(arms) < 2 {
		return nil
	}
	first := deref(arms[0])
	if first == nil {
		return nil
	}
	for _, sl := range first.slots {
		if _, ok := armConst(arms[0], sl.name); !ok {
			continue
		}
		d := &discIndex{name: sl.name, vals: make([]string, len(arms)), has: make([]bool, len(arms))}
		count := 0
		for k, arm := range arms {
			d.vals[k], d.has[k] = armConst(arm, sl.name)
			if d.has[k] {
				count++
			}
		}
		if count >= 2 {
			return d
		}
	}
	return nil
}

// discValue finds the discriminator's string value in the object at i,
// valid while the payload is. ok is false when the member is missing,
// repeated or not a string.
func (e *evaluator) discValue(d *discIndex, i int32) (string, bool) {
	t := &e.tape[i]
	found := int32(-1)
	j := i + 1
	for m := int32(0); m < t.n; m++ {
		ki, vi := j, j+1
		j = e.tape[vi].next
		if e.key(ki) == d.name {
			if found >= 0 {
				return "", false
			}
			found = vi
		}
	}
	if found < 0 || e.tape[found].kind != tString {
		return "", false
	}
	if e.tape[found].escaped { // a view of the scratch buffer would not last
		return strings.Clone(e.str(found)), true
	}
	return e.str(found), true
}

// skip reports whether arm k fails for certain on a payload whose
// discriminator is val.
func (d *discIndex) skip(k int, val string) bool {
	return d.has[k] && d.vals[k] != val
}
