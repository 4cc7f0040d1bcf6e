package validate

// objectFast is object in the fast mode: one pass reads the members and
// checks the cheap ones (a scalar property such as a const discriminator),
// then required and counts, and only then the members' deeper schemas,
// so a oneOf arm that is not the payload's fails before its heavy work.
func (e *evaluator) objectFast(n *snode, i int32) bool {
	t := e.tape[i]
	words := (len(n.slots) + 63) / 64
	base := len(e.bits)
	for k := 0; k < words; k++ {
		e.bits = append(e.bits, 0)
	}
	undeclBase, mbase := len(e.undecl), len(e.members)
	defer func() {
		e.bits = e.bits[:base]
		e.undecl = e.undecl[:undeclBase]
		e.members = e.members[:mbase]
	}()
	trackUndeclared := len(n.patProps) > 0 || n.addl != nil || n.propNames != nil || n.minProps >= 0 || n.maxProps >= 0
	j := i + 1
	for m := int32(0); m < t.n; m++ {
		ki, vi := j, j+1
		j = e.tape[vi].next
		key := e.key(ki)
		s, declared := n.lookup(key)
		var pats uint64
		for p := range n.patProps {
			if n.patProps[p].re.MatchString(key) {
				pats |= 1 << p
			}
		}
		heavy := false
		if declared {
			w, b := base+int(s/64), uint64(1)<<(s%64)
			if e.bits[w]&b != 0 {
				e.fallback = true // a duplicate key: the reference keeps the last
				return true
			}
			e.bits[w] |= b
			if sub := n.slots[s].sub; sub != nil {
				if n.slots[s].cheap {
					if pass, _ := e.eval(sub, vi, false); !pass {
						return false
					}
				} else {
					heavy = true
				}
			}
		} else {
			if trackUndeclared {
				e.undecl = append(e.undecl, ki)
			}
			if pats == 0 {
				if n.addlFalse {
					return false
				}
				heavy = heavy || n.addl != nil
			}
		}
		if heavy || pats != 0 || n.propNames != nil {
			if !declared {
				s = -1
			}
			e.members = append(e.members, member{slot: s, key: ki, val: vi, pats: pats})
		}
	}
	if e.hasDuplicate(e.undecl[undeclBase:]) {
		e.fallback = true
		return true
	}
	has := func(s int32) bool { return e.bits[base+int(s/64)]&(1<<(s%64)) != 0 }
	for _, s := range n.required {
		if !has(s) {
			return false
		}
	}
	if n.minProps >= 0 && int(t.n) < n.minProps || n.maxProps >= 0 && int(t.n) > n.maxProps {
		return false
	}
	for _, d := range n.deps {
		if d.sub == nil && has(d.slot) {
			for _, r := range d.require {
				if !has(r) {
					return false
				}
			}
		}
	}
	for k := mbase; k < len(e.members); k++ {
		mb := e.members[k]
		if mb.slot >= 0 {
			if sub := n.slots[mb.slot].sub; sub != nil && !n.slots[mb.slot].cheap {
				if pass, _ := e.eval(sub, mb.val, false); !pass {
					return false
				}
			}
		}
		if n.propNames != nil {
			if pass, _ := e.eval(n.propNames, mb.key, false); !pass {
				return false
			}
		}
		for p := range n.patProps {
			if mb.pats&(1<<p) != 0 {
				if pass, _ := e.eval(n.patProps[p].sub, mb.val, false); !pass {
					return false
				}
			}
		}
		if mb.slot < 0 && mb.pats == 0 && n.addl != nil {
			if pass, _ := e.eval(n.addl, mb.val, false); !pass {
				return false
			}
		}
		if e.fallback {
			return true
		}
	}
	for _, d := range n.deps {
		if d.sub != nil && has(d.slot) {
			if pass, _ := e.inPlaceEval(d.sub, i, false); !pass {
				return false
			}
		}
	}
	return true
}

// member is an object member whose checks objectFast deferred.
type member struct {
	slot     int32 // -1: not a declared property
	key, val int32
	pats     uint64
}

// lookup finds a property's slot: a scan over packed length and end bytes
// for a few, a map for many.
func (n *snode) lookup(key string) (int32, bool) {
	if len(n.slots) <= 16 {
		want := slotSig(key)
		for k, sig := range n.sigs {
			if sig == want && n.slots[k].name == key {
				return int32(k), true
			}
		}
		return 0, false
	}
	s, ok := n.names[key]
	return s, ok
}

// slotSig packs a name's length and first and last bytes.
func slotSig(s string) uint64 {
	if s == "" {
		return 0
	}
	return uint64(len(s))<<16 | uint64(s[0])<<8 | uint64(s[len(s)-1])
}

// finishNodes completes newly compiled nodes: name signatures, and which
// properties check a scalar only (after $refs), which objectFast checks
// first. Earlier nodes are left alone: validations may be reading them.
func finishNodes(nodes map[string]*snode) {
	for _, n := range nodes {
		if n.finished {
			continue // in use by validations already: read-only
		}
		n.finished = true
		n.anyOfDisc, n.oneOfDisc = newDiscIndex(n.anyOf), newDiscIndex(n.oneOf)
		for k := range n.slots {
			n.sigs = append(n.sigs, slotSig(n.slots[k].name))
		}
		for k := range n.slots {
			if sub := n.slots[k].sub; sub != nil {
				n.slots[k].cheap = isCheap(sub)
			}
		}
	}
}

func isCheap(n *snode) bool {
	for hops := 0; n.ref != nil; hops++ {
		if hops > 8 {
			return false
		}
		n = n.ref
	}
	if n.always != 0 {
		return true
	}
	return (n.hasConst || n.enum != nil) && n.types&(mObject|mArray) == 0 && !n.objectWork && !n.arrayWork &&
		n.not == nil && n.allOf == nil && n.anyOf == nil && n.oneOf == nil && !n.hasIf && len(n.deps) == 0
}
