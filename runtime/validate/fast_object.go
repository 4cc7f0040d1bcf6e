package validate

import (
	"fmt"
	"strconv"
	"strings"
)

// object checks an object's keywords in one pass over its members.
func (e *evaluator) object(n *snode, i int32, collect bool, errs *[]*vErr) bool {
	t := e.tape[i]
	words := (len(n.slots) + 63) / 64
	base := len(e.bits)
	for k := 0; k < words; k++ {
		e.bits = append(e.bits, 0)
	}
	undeclBase := len(e.undecl)
	defer func() {
		e.bits = e.bits[:base]
		e.undecl = e.undecl[:undeclBase]
	}()
	trackUndeclared := len(n.patProps) > 0 || n.addl != nil || n.propNames != nil || n.minProps >= 0 || n.maxProps >= 0 || n.addlFalse
	var propErrs, nameErrs, patErrs, addlErrs []*vErr
	var extra []string
	ok := true
	j := i + 1
	for m := int32(0); m < t.n; m++ {
		ki, vi := j, j+1
		j = e.tape[vi].next
		key := e.key(ki)
		s, declared := n.names[key]
		var pats uint64
		for p := range n.patProps {
			if n.patProps[p].re.MatchString(key) {
				pats |= 1 << p
			}
		}
		if declared {
			w, b := base+int(s/64), uint64(1)<<(s%64)
			if e.bits[w]&b != 0 {
				e.fallback = true // a duplicate key: the reference keeps the last
				return true
			}
			e.bits[w] |= b
		} else if trackUndeclared {
			e.undecl = append(e.undecl, ki)
		}
		e.path = append(e.path, ki)
		if declared && n.slots[s].sub != nil {
			if pass, err := e.eval(n.slots[s].sub, vi, collect); !pass {
				if !collect {
					e.path = e.path[:len(e.path)-1]
					return false
				}
				ok = false
				propErrs = append(propErrs, err)
			}
		}
		if n.propNames != nil {
			if pass, err := e.eval(n.propNames, ki, collect); !pass {
				if !collect {
					e.path = e.path[:len(e.path)-1]
					return false
				}
				ok = false
				nameErrs = append(nameErrs, err)
			}
		}
		for p := range n.patProps {
			if pats&(1<<p) == 0 {
				continue
			}
			if pass, err := e.eval(n.patProps[p].sub, vi, collect); !pass {
				if !collect {
					e.path = e.path[:len(e.path)-1]
					return false
				}
				ok = false
				patErrs = append(patErrs, err)
			}
		}
		if !declared && pats == 0 {
			switch {
			case n.addlFalse:
				if !collect {
					e.path = e.path[:len(e.path)-1]
					return false
				}
				ok = false
				extra = append(extra, quote(strings.Clone(e.key(ki))))
			case n.addl != nil:
				if pass, err := e.eval(n.addl, vi, collect); !pass {
					if !collect {
						e.path = e.path[:len(e.path)-1]
						return false
					}
					ok = false
					addlErrs = append(addlErrs, err)
				}
			}
		}
		e.path = e.path[:len(e.path)-1]
		if e.fallback {
			return true
		}
	}
	if e.hasDuplicate(e.undecl[undeclBase:]) {
		e.fallback = true
		return true
	}
	has := func(s int32) bool { return e.bits[base+int(s/64)]&(1<<(s%64)) != 0 }
	var own []*vErr
	count := int(t.n)
	if n.minProps >= 0 && count < n.minProps {
		if !collect {
			return false
		}
		own = append(own, e.newErr(n, "minProperties", fmt.Sprintf("minimum %d properties allowed, but found %d properties", n.minProps, count)))
	}
	if n.maxProps >= 0 && count > n.maxProps {
		if !collect {
			return false
		}
		own = append(own, e.newErr(n, "maxProperties", fmt.Sprintf("maximum %d properties allowed, but found %d properties", n.maxProps, count)))
	}
	var missing []string
	for _, s := range n.required {
		if !has(s) {
			if !collect {
				return false
			}
			missing = append(missing, quote(n.slots[s].name))
		}
	}
	if len(missing) > 0 {
		own = append(own, e.newErr(n, "required", "missing properties: "+strings.Join(missing, ", ")))
	}
	own = append(own, propErrs...)
	own = append(own, nameErrs...)
	own = append(own, patErrs...)
	if len(extra) > 0 {
		own = append(own, e.newErr(n, "additionalProperties", "additionalProperties "+strings.Join(extra, ", ")+" not allowed"))
	}
	own = append(own, addlErrs...)
	for _, d := range n.deps {
		if !has(d.slot) {
			continue
		}
		if d.sub != nil {
			if pass, err := e.inPlaceEval(d.sub, i, collect); !pass {
				if !collect {
					return false
				}
				own = append(own, err)
			}
			continue
		}
		for k, r := range d.require {
			if !has(r) {
				if !collect {
					return false
				}
				own = append(own, e.newErr(n, "dependencies/"+escapeLoc(d.name)+"/"+strconv.Itoa(k),
					fmt.Sprintf("property %s is required, if %s property exists", quote(d.names[k]), quote(d.name))))
			}
		}
	}
	if len(own) > 0 {
		*errs = append(*errs, own...)
		return false
	}
	return ok
}

// hasDuplicate reports whether two of the keys (tape indexes) are equal.
func (e *evaluator) hasDuplicate(keys []int32) bool {
	if len(keys) < 2 {
		return false
	}
	if len(keys) > 32 {
		seen := make(map[string]bool, len(keys))
		for _, k := range keys {
			s := e.key(k)
			if seen[s] {
				return true
			}
			seen[strings.Clone(s)] = true
		}
		return false
	}
	for a := 1; a < len(keys); a++ {
		for b := 0; b < a; b++ {
			if e.stringsEqual(keys[a], keys[b]) {
				return true
			}
		}
	}
	return false
}

func (e *evaluator) stringsEqual(a, b int32) bool {
	ta, tb := &e.tape[a], &e.tape[b]
	ra, rb := e.data[ta.start:ta.end], e.data[tb.start:tb.end]
	if !ta.escaped && !tb.escaped {
		return string(ra) == string(rb)
	}
	e.keyBuf = unescapeJSON(e.keyBuf[:0], ra)
	n := len(e.keyBuf)
	e.keyBuf = unescapeJSON(e.keyBuf, rb)
	return string(e.keyBuf[:n]) == string(e.keyBuf[n:])
}

// array checks an array's keywords.
func (e *evaluator) array(n *snode, i int32, collect bool, errs *[]*vErr) bool {
	t := e.tape[i]
	count := int(t.n)
	ok := true
	if n.minItems >= 0 && count < n.minItems {
		if !collect {
			return false
		}
		ok = false
		*errs = append(*errs, e.newErr(n, "minItems", fmt.Sprintf("minimum %d items required, but found %d items", n.minItems, count)))
	}
	if n.maxItems >= 0 && count > n.maxItems {
		if !collect {
			return false
		}
		ok = false
		*errs = append(*errs, e.newErr(n, "maxItems", fmt.Sprintf("maximum %d items required, but found %d items", n.maxItems, count)))
	}
	if n.unique && count > 1 {
		if a, b, dup := e.duplicateItems(i); dup {
			if !collect {
				return false
			}
			ok = false
			*errs = append(*errs, e.newErr(n, "uniqueItems", fmt.Sprintf("items at index %d and %d are equal", a, b)))
		}
		if e.fallback {
			return true
		}
	}
	j := i + 1
	matched := 0
	for k := 0; k < count; k++ {
		vi := j
		j = e.tape[vi].next
		var sub *snode
		switch {
		case n.items != nil:
			sub = n.items
		case k < len(n.tuple):
			sub = n.tuple[k]
		default:
			sub = n.addItems
		}
		e.path = append(e.path, int32(-k-1))
		if sub != nil {
			if pass, err := e.eval(sub, vi, collect); !pass {
				if !collect {
					e.path = e.path[:len(e.path)-1]
					return false
				}
				ok = false
				*errs = append(*errs, err)
			}
		}
		if n.contains != nil && matched == 0 {
			if pass, _ := e.eval(n.contains, vi, false); pass {
				matched++
			}
		}
		e.path = e.path[:len(e.path)-1]
	}
	if len(n.tuple) > 0 && n.items == nil && n.addItemsFalse && count > len(n.tuple) {
		if !collect {
			return false
		}
		ok = false
		*errs = append(*errs, e.newErr(n, "additionalItems", fmt.Sprintf("only %d items are allowed, but found %d items", len(n.tuple), count)))
	}
	if n.contains != nil && matched == 0 {
		if !collect {
			return false
		}
		ok = false
		*errs = append(*errs, e.newErr(n, "minContains", "valid must be >= 1, but got 0"))
	}
	return ok
}
